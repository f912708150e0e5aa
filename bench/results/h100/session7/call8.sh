#!/bin/bash
# Session 7, H100 call 8 (2026-11-23), final tree: the suite's first part
# (suite.sh part1), then the split's second look (split2.sh).
bash bench/results/h100/session7/suite.sh part1
bash bench/results/h100/session7/split2.sh
