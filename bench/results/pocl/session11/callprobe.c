/* Session 11's call probe (bench/NOTES.md section 34): one n^3 GEMM of
 * gpublas3 and of CLBlast and a one-work-item empty kernel, alternating call
 * by call on one in-order queue of the first device (PoCL here), after 50
 * warm-up pairs; for each, the host time inside the call (enqueue) and the
 * time to the return of clFinish; median and 10th percentile in us.  Not
 * checked (the bench checks these calls).  Build from the repository root
 * after the build:
 *   gcc -O2 -o callprobe bench/results/pocl/session11/callprobe.c -Iinclude -Ibench \
 *       -Lbuild -Wl,-rpath,$PWD/build -lgpublas3 -lclblast -lOpenCL
 * Usage: callprobe [calls (2000)] [s|d] [n (32)]; GPUBLAS3_PARAMS applies. */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <clblast_c.h>
#include <gpublas3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "probe.h"
static int cmp(const void *a, const void *b){double x=*(const double*)a,y=*(const double*)b;return (x>y)-(x<y);}
static double med(double *t,int n){qsort(t,n,sizeof*t,cmp);return 1e6*t[n/2];}
static double p10(double *t,int n){qsort(t,n,sizeof*t,cmp);return 1e6*t[n/10];}
int main(int argc,char**argv){
  int n=argc>1?atoi(argv[1]):2000, dbl=argc>2&&argv[2][0]=='d', sz=argc>3?atoi(argv[3]):32;
  cl_platform_id p; clGetPlatformIDs(1,&p,NULL); cl_device_id d; clGetDeviceIDs(p,CL_DEVICE_TYPE_ALL,1,&d,NULL);
  cl_int err; cl_context ctx=clCreateContext(NULL,1,&d,NULL,NULL,&err); cl_command_queue q=clCreateCommandQueue(ctx,d,0,&err);
  size_t es=dbl?8:4, bytes=es*sz*sz; char *h=malloc(bytes); for(size_t i=0;i<bytes/es;i++){ if(dbl)((double*)h)[i]=(i%7)*0.25; else ((float*)h)[i]=(i%7)*0.25f;}
  cl_mem A=clCreateBuffer(ctx,CL_MEM_READ_WRITE|CL_MEM_COPY_HOST_PTR,bytes,h,&err),B=clCreateBuffer(ctx,CL_MEM_READ_WRITE|CL_MEM_COPY_HOST_PTR,bytes,h,&err),C=clCreateBuffer(ctx,CL_MEM_READ_WRITE|CL_MEM_COPY_HOST_PTR,bytes,h,&err);
  gpublas3Setup();
  const char *src="kernel void tick(global int *p) { p[0] += 1; }"; cl_program pr=clCreateProgramWithSource(ctx,1,&src,NULL,&err); clBuildProgram(pr,1,&d,"",NULL,NULL);
  cl_kernel k=clCreateKernel(pr,"tick",&err); cl_mem one=clCreateBuffer(ctx,CL_MEM_READ_WRITE,4,NULL,&err); clSetKernelArg(k,0,sizeof one,&one); size_t o1=1;
  double *te=malloc(n*8*6);
  double *t[6]; for(int i=0;i<6;i++) t[i]=te+i*n;
  for(int w=0;w<50;w++){ if(dbl) gpublas3Dgemm(gpublas3ColumnMajor,gpublas3NoTrans,gpublas3NoTrans,sz,sz,sz,1.25,A,0,sz,B,0,sz,0.75,C,0,sz,1,&q,0,NULL,NULL); else gpublas3Sgemm(gpublas3ColumnMajor,gpublas3NoTrans,gpublas3NoTrans,sz,sz,sz,1.25f,A,0,sz,B,0,sz,0.75f,C,0,sz,1,&q,0,NULL,NULL); clFinish(q);
    cl_event e; if(dbl) CLBlastDgemm(CLBlastLayoutColMajor,CLBlastTransposeNo,CLBlastTransposeNo,sz,sz,sz,1.25,A,0,sz,B,0,sz,0.75,C,0,sz,&q,&e); else CLBlastSgemm(CLBlastLayoutColMajor,CLBlastTransposeNo,CLBlastTransposeNo,sz,sz,sz,1.25f,A,0,sz,B,0,sz,0.75f,C,0,sz,&q,&e); clFinish(q); clReleaseEvent(e);}
  for(int i=0;i<n;i++){
    double t0=now(); clEnqueueNDRangeKernel(q,k,1,NULL,&o1,&o1,0,NULL,NULL); double t1=now(); clFinish(q); double t2=now(); t[0][i]=t1-t0; t[1][i]=t2-t0;
    t0=now(); if(dbl) gpublas3Dgemm(gpublas3ColumnMajor,gpublas3NoTrans,gpublas3NoTrans,sz,sz,sz,1.25,A,0,sz,B,0,sz,0.75,C,0,sz,1,&q,0,NULL,NULL); else gpublas3Sgemm(gpublas3ColumnMajor,gpublas3NoTrans,gpublas3NoTrans,sz,sz,sz,1.25f,A,0,sz,B,0,sz,0.75f,C,0,sz,1,&q,0,NULL,NULL);
    t1=now(); clFinish(q); t2=now(); t[2][i]=t1-t0; t[3][i]=t2-t0;
    cl_event e; t0=now(); if(dbl) CLBlastDgemm(CLBlastLayoutColMajor,CLBlastTransposeNo,CLBlastTransposeNo,sz,sz,sz,1.25,A,0,sz,B,0,sz,0.75,C,0,sz,&q,&e); else CLBlastSgemm(CLBlastLayoutColMajor,CLBlastTransposeNo,CLBlastTransposeNo,sz,sz,sz,1.25f,A,0,sz,B,0,sz,0.75f,C,0,sz,&q,&e);
    t1=now(); clFinish(q); t2=now(); clReleaseEvent(e); t[4][i]=t1-t0; t[5][i]=t2-t0;
  }
  const char *nm[3]={"empty kernel","gpublas3","clblast"};
  for(int j=0;j<3;j++){ printf("%c %d^3 %-13s host enqueue median %6.1f p10 %5.1f | to clFinish median %6.1f p10 %5.1f us\n", dbl?'d':'s', sz, nm[j], med(t[2*j],n),p10(t[2*j],n),med(t[2*j+1],n),p10(t[2*j+1],n)); }
  return 0; }
