//go:build amd64 || arm64

package stonenet

// kernelWidth is the number of outputs one kernel step holds per register group (a 256-bit AVX
// register, two 128-bit NEON ones).
const kernelWidth = 8

// vectorLayer adds the weighted inputs to out: out[o] += sum over i of in[i]*byInput[i*len(out)+o].
// len(out) is a multiple of kernelWidth and byInput holds len(in)*len(out) weights; the kernels
// keep 32 (or 8) outputs in registers and stream the weights past them once.
func vectorLayer(out, byInput, in []float32) {
	n, stride := len(in), len(out)
	if n == 0 || stride%kernelWidth != 0 || len(byInput) != n*stride {
		panic("stonenet: vectorLayer: weights do not fit the layer") // a compile bug, never input
	}
	c := 0
	for ; c+4*kernelWidth <= stride; c += 4 * kernelWidth {
		fmaBand32(&out[c], &byInput[c], stride, &in[0], n)
	}
	for ; c < stride; c += kernelWidth {
		fmaBand8(&out[c], &byInput[c], stride, &in[0], n)
	}
}

// fmaBand32 adds to acc[0:32] the sum over i < n of x[i] * w[i*stride : i*stride+32].
//
//go:noescape
func fmaBand32(acc, w *float32, stride int, x *float32, n int)

// fmaBand8 adds to acc[0:8] the sum over i < n of x[i] * w[i*stride : i*stride+8].
//
//go:noescape
func fmaBand8(acc, w *float32, stride int, x *float32, n int)
