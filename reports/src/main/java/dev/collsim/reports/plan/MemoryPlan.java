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
 * @param suggestions       when it does not fit: single changes that make it fit, each with its need (empty when it
 *                          fits, or when no single change does)
 */
public record MemoryPlan(double weightsBytes, double gradsBytes, double optimizerBytes, double activationsBytes,
        double perLayerBytes, double inFlight, double capacityBytes, List<String> suggestions) {

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
     * @return e.g. {@code 95.7 GB per GPU (weights 8.8, gradients 8.8, optimizer 13.1, activations 65.0 GB) of 80.0
     *         GB: 15.7 GB short; fits with: --recompute full: 42.1 GB per GPU on 64 GPUs} (GB = 1e9 B)
     */
    public String summary() {
        String need = String.format(Locale.ROOT, "%.1f GB per GPU (weights %.1f, gradients %.1f, optimizer %.1f,"
                + " activations %.1f GB)", totalBytes() / 1e9, weightsBytes / 1e9, gradsBytes / 1e9,
                optimizerBytes / 1e9, activationsBytes / 1e9);
        if (Double.isNaN(capacityBytes)) {
            return need + "; the GPU's memory is unknown: not checked";
        }
        if (fits()) {
            return need + String.format(Locale.ROOT, " of %.1f GB: fits", capacityBytes / 1e9);
        }
        String fix = suggestions.isEmpty() ? "no single change (--recompute full, a higher --zero stage, twice --pp"
                + " or twice --tp) fits; combine them or use GPUs with more memory" : "fits with: "
                + String.join("; ", suggestions);
        return need + String.format(Locale.ROOT, " of %.1f GB: %.1f GB short; %s", capacityBytes / 1e9,
                shortBytes() / 1e9, fix);
    }

    /** @return bytes missing (0 when it fits) */
    public double shortBytes() {
        return fits() ? 0 : totalBytes() - capacityBytes;
    }
}
