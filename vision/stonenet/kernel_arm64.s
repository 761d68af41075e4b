#include "textflag.h"

// LOAD_ARGS loads both kernels' arguments: acc in R0, w in R1, the stride in bytes in R2, x in
// R3 and n in R4.
#define LOAD_ARGS \
	MOVD acc+0(FP), R0;     \
	MOVD w+8(FP), R1;       \
	MOVD stride+16(FP), R2; \
	LSL  $2, R2, R2;        \
	MOVD x+24(FP), R3;      \
	MOVD n+32(FP), R4

// The kernels keep a band of outputs in NEON registers and stream the weights past them, one
// input at a time: x[i] loaded into all four lanes, then one fused multiply-add per 4 outputs.

// func fmaBand32(acc, w *float32, stride int, x *float32, n int)
// acc[0:32] += sum over i < n of x[i] * w[i*stride : i*stride+32], in V0-V7.
TEXT ·fmaBand32(SB), NOSPLIT, $0-40
	LOAD_ARGS
	ADD  $64, R0, R6
	VLD1 (R0), [V0.S4, V1.S4, V2.S4, V3.S4]
	VLD1 (R6), [V4.S4, V5.S4, V6.S4, V7.S4]
	CBZ  R4, done32

loop32:
	VLD1R.P 4(R3), [V8.S4]
	MOVD    R1, R5
	VLD1.P  64(R5), [V16.S4, V17.S4, V18.S4, V19.S4]
	VLD1    (R5), [V20.S4, V21.S4, V22.S4, V23.S4]
	VFMLA   V8.S4, V16.S4, V0.S4
	VFMLA   V8.S4, V17.S4, V1.S4
	VFMLA   V8.S4, V18.S4, V2.S4
	VFMLA   V8.S4, V19.S4, V3.S4
	VFMLA   V8.S4, V20.S4, V4.S4
	VFMLA   V8.S4, V21.S4, V5.S4
	VFMLA   V8.S4, V22.S4, V6.S4
	VFMLA   V8.S4, V23.S4, V7.S4
	ADD     R2, R1, R1
	SUB     $1, R4, R4
	CBNZ    R4, loop32

done32:
	VST1 [V0.S4, V1.S4, V2.S4, V3.S4], (R0)
	VST1 [V4.S4, V5.S4, V6.S4, V7.S4], (R6)
	RET

// func fmaBand8(acc, w *float32, stride int, x *float32, n int)
// acc[0:8] += sum over i < n of x[i] * w[i*stride : i*stride+8], in V0-V1.
TEXT ·fmaBand8(SB), NOSPLIT, $0-40
	LOAD_ARGS
	VLD1 (R0), [V0.S4, V1.S4]
	CBZ  R4, done8

loop8:
	VLD1R.P 4(R3), [V8.S4]
	VLD1    (R1), [V16.S4, V17.S4]
	VFMLA   V8.S4, V16.S4, V0.S4
	VFMLA   V8.S4, V17.S4, V1.S4
	ADD     R2, R1, R1
	SUB     $1, R4, R4
	CBNZ    R4, loop8

done8:
	VST1 [V0.S4, V1.S4], (R0)
	RET
