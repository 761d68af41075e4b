#include "textflag.h"

// LOAD_ARGS loads both kernels' arguments: acc in DI, w in SI, the stride in bytes in DX, x in
// BX and n in CX.
#define LOAD_ARGS \
	MOVQ acc+0(FP), DI;    \
	MOVQ w+8(FP), SI;      \
	MOVQ stride+16(FP), DX; \
	SHLQ $2, DX;           \
	MOVQ x+24(FP), BX;     \
	MOVQ n+32(FP), CX

// The kernels keep a band of outputs in registers and stream the weights past them, one input
// at a time: broadcast x[i], then one fused multiply-add per 8 outputs. An FMA waits about four
// cycles for the one before it on the same register, so each kernel keeps several independent
// sums (inputs taken in pairs or fours) and adds them at the end.

// func fmaBand32(acc, w *float32, stride int, x *float32, n int)
// acc[0:32] += sum over i < n of x[i] * w[i*stride : i*stride+32].
// Y0-Y3 sum the even inputs, Y8-Y11 the odd ones.
TEXT ·fmaBand32(SB), NOSPLIT, $0-40
	LOAD_ARGS
	VMOVUPS 0(DI), Y0
	VMOVUPS 32(DI), Y1
	VMOVUPS 64(DI), Y2
	VMOVUPS 96(DI), Y3
	VXORPS  Y8, Y8, Y8
	VXORPS  Y9, Y9, Y9
	VXORPS  Y10, Y10, Y10
	VXORPS  Y11, Y11, Y11
	LEAQ    (SI)(DX*1), R8 // the odd input's weights
	SHLQ    $1, DX         // two rows a step
	CMPQ    CX, $2
	JLT     tail32

pairs32:
	VBROADCASTSS (BX), Y4
	VBROADCASTSS 4(BX), Y5
	VFMADD231PS  0(SI), Y4, Y0
	VFMADD231PS  32(SI), Y4, Y1
	VFMADD231PS  64(SI), Y4, Y2
	VFMADD231PS  96(SI), Y4, Y3
	VFMADD231PS  0(R8), Y5, Y8
	VFMADD231PS  32(R8), Y5, Y9
	VFMADD231PS  64(R8), Y5, Y10
	VFMADD231PS  96(R8), Y5, Y11
	ADDQ         $8, BX
	ADDQ         DX, SI
	ADDQ         DX, R8
	SUBQ         $2, CX
	CMPQ         CX, $2
	JGE          pairs32

tail32:
	TESTQ        CX, CX
	JEQ          done32
	VBROADCASTSS (BX), Y4
	VFMADD231PS  0(SI), Y4, Y0
	VFMADD231PS  32(SI), Y4, Y1
	VFMADD231PS  64(SI), Y4, Y2
	VFMADD231PS  96(SI), Y4, Y3

done32:
	VADDPS  Y8, Y0, Y0
	VADDPS  Y9, Y1, Y1
	VADDPS  Y10, Y2, Y2
	VADDPS  Y11, Y3, Y3
	VMOVUPS Y0, 0(DI)
	VMOVUPS Y1, 32(DI)
	VMOVUPS Y2, 64(DI)
	VMOVUPS Y3, 96(DI)
	VZEROUPPER
	RET

// func fmaBand8(acc, w *float32, stride int, x *float32, n int)
// acc[0:8] += sum over i < n of x[i] * w[i*stride : i*stride+8].
// Y0-Y3 sum the inputs i with i%4 == 0, 1, 2, 3.
TEXT ·fmaBand8(SB), NOSPLIT, $0-40
	LOAD_ARGS
	VMOVUPS 0(DI), Y0
	VXORPS  Y1, Y1, Y1
	VXORPS  Y2, Y2, Y2
	VXORPS  Y3, Y3, Y3
	LEAQ    (DX)(DX*2), R9 // three rows
	LEAQ    (DX*4), R10    // four rows
	CMPQ    CX, $4
	JLT     tail8

fours8:
	VBROADCASTSS (BX), Y4
	VBROADCASTSS 4(BX), Y5
	VBROADCASTSS 8(BX), Y6
	VBROADCASTSS 12(BX), Y7
	VFMADD231PS  (SI), Y4, Y0
	VFMADD231PS  (SI)(DX*1), Y5, Y1
	VFMADD231PS  (SI)(DX*2), Y6, Y2
	VFMADD231PS  (SI)(R9*1), Y7, Y3
	ADDQ         $16, BX
	ADDQ         R10, SI
	SUBQ         $4, CX
	CMPQ         CX, $4
	JGE          fours8

tail8:
	TESTQ        CX, CX
	JEQ          done8
	VBROADCASTSS (BX), Y4
	VFMADD231PS  (SI), Y4, Y0
	ADDQ         $4, BX
	ADDQ         DX, SI
	DECQ         CX
	JMP          tail8

done8:
	VADDPS  Y1, Y0, Y0
	VADDPS  Y3, Y2, Y2
	VADDPS  Y2, Y0, Y0
	VMOVUPS Y0, 0(DI)
	VZEROUPPER
	RET
