//go:build !amd64 && !arm64

package stonenet

// kernelWidth is the number of float32s the by-input layout groups; without a vector kernel
// it only decides which layers keep that layout.
const kernelWidth = 8

// vectorKernel is false: this architecture has no vector kernel here, and Compiled runs the
// same Go loops as Net.
const vectorKernel = false

// vectorLayer adds the weighted inputs to out, as the kernels elsewhere do, in plain Go.
func vectorLayer(out, byInput, in []float32) {
	stride := len(out)
	for i, v := range in {
		row := byInput[i*stride : (i+1)*stride]
		for o := range out {
			out[o] += v * row[o]
		}
	}
}
