package dev.collsim.reports.plan;

import java.util.Locale;
import java.util.OptionalDouble;

/**
 * Dense (no sparsity) BF16/FP16 tensor-core peak of GPU models, in FLOP/s, used with {@code --mfu}.
 * Sources, NVIDIA datasheets: V100 SXM2 125 TFLOPS (FP16; V100 has no BF16), A100 SXM 312 TFLOPS,
 * H100 SXM and H200 SXM 989 TFLOPS, H100 PCIe 756 TFLOPS, H100 NVL 835 TFLOPS, B200 2.25 PFLOPS (HGX B200),
 * GB200 2.5 PFLOPS per GPU (GB200 NVL72), L40S 362 TFLOPS, RTX 4090 165 TFLOPS (FP16 with FP32 accumulate,
 * Ada whitepaper), RTX PRO 6000 Blackwell 500 TFLOPS (about; NVIDIA quotes 4000 sparse FP4).
 */
public final class GpuPeak {

    private static final String[][] TABLE = {
        // most specific names first: "H100 PCIe" before "H100"
        {"GB200", "2.5e15"}, {"B200", "2.25e15"}, {"H200", "989e12"}, {"H100-PCIE", "756e12"},
        {"H100 PCIE", "756e12"}, {"H100NVL", "835e12"}, {"H100 NVL", "835e12"}, {"H100", "989e12"},
        {"GH200", "989e12"}, {"A100", "312e12"}, {"V100", "125e12"}, {"L40S", "362e12"},
        {"4090", "165e12"}, {"PRO6000", "500e12"}, {"PRO 6000", "500e12"},
    };

    private GpuPeak() {
    }

    /**
     * @param model a GPU model name, e.g. {@code H100-SXM5-80GB}
     * @return its peak FLOP/s, empty when the model is not in the table
     */
    public static OptionalDouble flops(String model) {
        String m = model.toUpperCase(Locale.ROOT);
        if (m.contains("GH200")) {
            return OptionalDouble.of(989e12);
        }
        for (String[] row : TABLE) {
            if (m.contains(row[0])) {
                return OptionalDouble.of(Double.parseDouble(row[1]));
            }
        }
        return OptionalDouble.empty();
    }
}
