package stonenet

import "golang.org/x/sys/cpu"

// vectorKernel tells whether this CPU runs the AVX2/FMA kernels (kernel_amd64.s).
var vectorKernel = cpu.X86.HasAVX2 && cpu.X86.HasFMA
