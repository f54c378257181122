/*
 * cuda.h - codegen's CUDA target (cuda.c): the same dispatch regions as on
 * the CPU, each lowered to a PTX .entry through LLVM's NVPTX backend.
 */
#ifndef CODEGEN_CUDA_H
#define CODEGEN_CUDA_H

#include "gen.h"

/* The GPU architectures --gpu-arch accepts; 1 if arch is one. */
int cuda_arch_ok(const char *arch);

/* Sets k->grid for the CUDA schedule and returns the block size and the
 * dynamic shared memory (bytes) a launch needs.  Pure: call it as often
 * as needed, before host_build (which records the grid). */
void cuda_launch(const Opts *o, Kernel *k, int64_t block[3], int64_t *shared);

/* Every kernel of g as one PTX module for arch (NUL-terminated text;
 * objlen counts the NUL), or with --emit=llvm the optimized LLVM IR. */
int cuda_emit_kernels(Gen *g, const char *arch, uint8_t **obj, size_t *objlen);

#endif
