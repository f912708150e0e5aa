/* Session 11 (bench/NOTES.md section 34): empty kernels with 1, 17 and 40
 * arguments (buffers, longs, ints), 4 work-groups of 4, alternating: the
 * time to set the arguments and enqueue, and to the return of clFinish.
 * gcc -O2 -o argprobe bench/results/pocl/session11/argprobe.c -Ibench -lOpenCL */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include "probe.h"
static int cmp(const void *a, const void *b){double x=*(const double*)a,y=*(const double*)b;return (x>y)-(x<y);}
static double q(double *t,int n,int p){qsort(t,n,sizeof*t,cmp);return 1e6*t[n*p/100];}
int main(int argc,char**argv){
  int n=argc>1?atoi(argv[1]):2000;
  cl_platform_id p; clGetPlatformIDs(1,&p,NULL); cl_device_id d; clGetDeviceIDs(p,CL_DEVICE_TYPE_ALL,1,&d,NULL);
  cl_int err; cl_context ctx=clCreateContext(NULL,1,&d,NULL,NULL,&err); cl_command_queue qu=clCreateCommandQueue(ctx,d,0,&err);
  char src[8192]; int na[3]={1,17,40}; cl_kernel k[3]; cl_mem buf=clCreateBuffer(ctx,CL_MEM_READ_WRITE,64,NULL,&err);
  for(int v=0;v<3;v++){ int o=sprintf(src,"kernel void k%d(global int *p",v); for(int i=1;i<na[v];i++) o+=sprintf(src+o, i%3==0?", global const float *a%d":i%3==1?", const long a%d":", const int a%d",i); sprintf(src+o,") { if (get_global_id(0)==0) p[0] += 1; }");
    const char *s=src; cl_program pr=clCreateProgramWithSource(ctx,1,&s,NULL,&err); if(clBuildProgram(pr,1,&d,"",NULL,NULL)){printf("build %d failed\n",v);return 1;}
    char nm[8]; sprintf(nm,"k%d",v); k[v]=clCreateKernel(pr,nm,&err); }
  double *t=malloc(sizeof(double)*n*6); size_t g[2]={16,4}, l[2]={4,1};
  for(int it=-100;it<n;it++) for(int v=0;v<3;v++){
    cl_long lv=3; cl_int iv=2;
    double t0=now();
    for(int i=0;i<na[v];i++){ if(i==0||i%3==0) clSetKernelArg(k[v],i,sizeof buf,&buf); else if(i%3==1) clSetKernelArg(k[v],i,sizeof lv,&lv); else clSetKernelArg(k[v],i,sizeof iv,&iv);} 
    clEnqueueNDRangeKernel(qu,k[v],2,NULL,g,l,0,NULL,NULL); double t1=now(); clFinish(qu); double t2=now();
    if(it>=0){ t[(2*v)*n+it]=t1-t0; t[(2*v+1)*n+it]=t2-t0; } }
  for(int v=0;v<3;v++) printf("%2d args, 4x1 groups of 4: set args + enqueue median %5.1f p10 %5.1f | to clFinish median %5.1f p10 %5.1f us\n", na[v], q(t+2*v*n,n,50), q(t+2*v*n,n,10), q(t+(2*v+1)*n,n,50), q(t+(2*v+1)*n,n,10));
  return 0; }
