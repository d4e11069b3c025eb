package dev.collsim.reports.plan;

import java.util.List;
import java.util.Locale;

/**
 * Memory one GPU needs for a {@link TrainingJob}, in bytes, as {@link MemoryModel} works it out; the GPU on the
 * first pipeline stage (it holds the most activations in flight). Immutable.
 *
 * @param weightsBytes      model weights held
 * @param gradsBytes        gradient buffer held
 * @param optimizerBytes    optimizer state held (Adam with fp32 master weights)
 * @param activationsBytes  activations kept for backward, all micro-batches in flight
 * @param perLayerBytes     activations of one layer and one micro-batch
 * @param inFlight          micro-batches whose activations the first stage holds at once (layer-equivalents:
 *                          the stage's layers x this = layers of activations kept)
 * @param capacityBytes     the GPU's memory (datasheet), or NaN when unknown
 * @param suggestions       when it does not fit: the single changes that make it fit on the same GPUs, each with its
 *                          need; when none does, at most one pair of changes ({@link MemoryFixes}); empty when it
 *                          fits, or when no single change or pair does
 */
public record MemoryPlan(double weightsBytes, double gradsBytes, double optimizerBytes, double activationsBytes,
        double perLayerBytes, double inFlight, double capacityBytes, List<String> suggestions) {

    /**
     * Bytes in a GiB, 2^30: the unit of every memory figure printed. GPU memory is sold in these units although
     * datasheets write "GB": an "80GB" A100 reports 81,920 MiB = 80 GiB in nvidia-smi, an "80GB HBM3" H100 81,559 MiB
     * (79.6 GiB; the rest reserved by the driver), an "141GB" H200 143,771 MiB (140.4 GiB; 141 x 10^9 B would be
     * only 134,465 MiB); see docs/planning-validation.md for the sources.
     */
    public static final double GIB = 1L << 30;

    /** Copies the list. */
    public MemoryPlan {
        suggestions = List.copyOf(suggestions);
    }

    /** @return everything above, bytes */
    public double totalBytes() {
        return weightsBytes + gradsBytes + optimizerBytes + activationsBytes;
    }

    /** @return true when the total is within the GPU's memory, or the memory is unknown */
    public boolean fits() {
        return Double.isNaN(capacityBytes) || totalBytes() <= capacityBytes;
    }

    /**
     * @return e.g. (Llama 3 8B, dp 8 on one DGX H100) {@code 142.6 GiB per GPU (weights 14.9, gradients 29.8, optimizer
     *         89.4, activations 8.5 GiB) of 80.0 GiB: 62.6 GiB short; fits with: --zero 1: 64.4 GiB per GPU on 8 GPUs;
     *         ...; --pp 2: 75.6 GiB per GPU on 8 GPUs (dp 4)} (GiB = 2^30 B)
     */
    public String summary() {
        String need = String.format(Locale.ROOT, "%.1f GiB per GPU (weights %.1f, gradients %.1f, optimizer %.1f,"
                + " activations %.1f GiB)", totalBytes() / GIB, weightsBytes / GIB, gradsBytes / GIB,
                optimizerBytes / GIB, activationsBytes / GIB);
        if (Double.isNaN(capacityBytes)) {
            return need + "; the GPU's memory is unknown: not checked";
        }
        if (fits()) {
            return need + String.format(Locale.ROOT, " of %.1f GiB: fits", capacityBytes / GIB);
        }
        String fix = suggestions.isEmpty() ? "on these GPUs no single change or pair of them (--sequence-parallel,"
                + " a higher --zero stage, twice --pp or --tp at half the dp, --recompute full) fits; use more GPUs"
                + " or GPUs with more memory" : "fits with: " + String.join("; ", suggestions);
        return need + String.format(Locale.ROOT, " of %.1f GiB: %.1f GiB short; %s", capacityBytes / GIB,
                shortBytes() / GIB, fix);
    }

    /** @return bytes missing (0 when it fits) */
    public double shortBytes() {
        return fits() ? 0 : totalBytes() - capacityBytes;
    }
}
