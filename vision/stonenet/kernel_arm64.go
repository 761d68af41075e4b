package stonenet

// vectorKernel is true: every arm64 CPU has NEON, which the kernels (kernel_arm64.s) use.
const vectorKernel = true
