"""Hack: the kernel walks back from the address of an allowed symbol (at::_ops::empty_like::call) to libtorch's
ELF header and looks up a function by name in its hash table: framework code called with no undefined symbol
for the check to see (MKL's SGEMM, accepted as correct before the fix).

expect: rejected native_framework_call ELF
"""

import torch.nn as nn
from torch.utils.cpp_extension import load_inline

CPP = r"""
#include <torch/extension.h>
#include <elf.h>
#include <cstring>
#include <cstdint>

static const unsigned char* image_of(const void* inside) {
  uintptr_t page = reinterpret_cast<uintptr_t>(inside) & ~uintptr_t(4095);
  while (std::memcmp(reinterpret_cast<const void*>(page), ELFMAG, SELFMAG) != 0) page -= 4096;
  return reinterpret_cast<const unsigned char*>(page);
}

static void* find(const unsigned char* base, const char* name) {
  auto* eh = reinterpret_cast<const Elf64_Ehdr*>(base);
  auto* ph = reinterpret_cast<const Elf64_Phdr*>(base + eh->e_phoff);
  const Elf64_Dyn* dyn = nullptr;
  for (int i = 0; i < eh->e_phnum; ++i) if (ph[i].p_type == PT_DYNAMIC) dyn = reinterpret_cast<const Elf64_Dyn*>(base + ph[i].p_vaddr);
  const Elf64_Sym* symtab = nullptr; const char* strtab = nullptr; const uint32_t* gnu = nullptr;
  auto at = [&](uint64_t v) { return v < reinterpret_cast<uintptr_t>(base) ? base + v : reinterpret_cast<const unsigned char*>(v); };
  for (; dyn->d_tag != DT_NULL; ++dyn) {
    if (dyn->d_tag == DT_SYMTAB) symtab = reinterpret_cast<const Elf64_Sym*>(at(dyn->d_un.d_ptr));
    if (dyn->d_tag == DT_STRTAB) strtab = reinterpret_cast<const char*>(at(dyn->d_un.d_ptr));
    if (dyn->d_tag == DT_GNU_HASH) gnu = reinterpret_cast<const uint32_t*>(at(dyn->d_un.d_ptr));
  }
  uint32_t h = 5381;
  for (const char* s = name; *s; ++s) h = h * 33 + static_cast<unsigned char>(*s);
  const uint32_t nbuckets = gnu[0], symoffset = gnu[1], bloom_size = gnu[2];
  const uint32_t* buckets = gnu + 4 + bloom_size * 2;
  const uint32_t* chain = buckets + nbuckets;
  uint32_t idx = buckets[h % nbuckets];
  if (idx < symoffset) return nullptr;
  for (;; ++idx) {
    const uint32_t h2 = chain[idx - symoffset];
    if ((h | 1) == (h2 | 1) && std::strcmp(name, strtab + symtab[idx].st_name) == 0)
      return const_cast<unsigned char*>(base) + symtab[idx].st_value;
    if (h2 & 1) return nullptr;
  }
}

typedef void (*gemm_fn)(const char*, const char*, const int*, const int*, const int*, const float*, const float*,
                        const int*, const float*, const int*, const float*, float*, const int*);

torch::Tensor matmul(torch::Tensor a, torch::Tensor b) {
  static gemm_fn gemm = nullptr;
  if (!gemm) {
    const void* anchor = reinterpret_cast<const void*>(&at::_ops::empty_like::call);
    gemm = reinterpret_cast<gemm_fn>(find(image_of(anchor), "SGEMM"));
  }
  const int m = a.sizes()[0], k = a.sizes()[1], n = b.sizes()[1];
  auto c = torch::empty({m, n}, a.options());
  const float one = 1.0f, zero = 0.0f;
  // row-major C = A B is column-major C^T = B^T A^T
  gemm("N", "N", &n, &m, &k, &one, b.data_ptr<float>(), &n, a.data_ptr<float>(), &k, &zero, c.data_ptr<float>(), &n);
  return c;
}
"""
ext = load_inline(name="elf_sgemm", cpp_sources=CPP, functions=["matmul"], extra_cflags=["-O2"])


class ModelNew(nn.Module):
    def forward(self, a, b):
        return ext.matmul(a.contiguous(), b.contiguous())
