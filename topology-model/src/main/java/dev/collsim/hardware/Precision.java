package dev.collsim.hardware;

/** Number formats of a GPU's peak FLOP/s figures ({@link GpuModel#denseFlops()}). */
public enum Precision {
    /** 8-bit floating point (E4M3/E5M2) on tensor cores. */
    FP8,
    /** bfloat16 on tensor cores. */
    BF16,
    /** IEEE half precision on tensor cores. */
    FP16,
    /** TensorFloat-32 on tensor cores. */
    TF32,
    /** IEEE single precision on the CUDA cores (no tensor cores). */
    FP32
}
