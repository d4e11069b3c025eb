package dev.collsim.executor;

import java.util.ArrayList;
import java.util.List;

/**
 * The sizes nccl-tests 2.19.6 visits ({@code src/common.cu TimeTest}): from minBytes to maxBytes, multiplied by
 * the step factor when it is above 1, else increased by the step in bytes; warm-up visits min, 2 min, 4 min ...
 * up to maxBytes.
 *
 * @param minBytes   smallest size, bytes
 * @param maxBytes   largest size, bytes
 * @param stepBytes  additive step, bytes (used when stepFactor <= 1)
 * @param stepFactor multiplicative step (off when <= 1)
 */
public record SizeSweep(long minBytes, long maxBytes, long stepBytes, long stepFactor) {

    /** Bytes in a GiB (nccl-tests' {@code GB} in memory sizing). */
    public static final long GIB = 1L << 30;

    /**
     * @throws ExecutorException (usage) when the sweep is empty or would never end
     */
    public SizeSweep {
        if (minBytes < 0 || maxBytes < 0) {
            throw new ExecutorException("sizes must be >= 0 bytes, got -b " + minBytes + " -e " + maxBytes,
                    ExecutorException.USAGE);
        }
        if (minBytes > maxBytes) {
            throw new ExecutorException("minimum size " + minBytes + " (-b) is larger than maximum size "
                    + maxBytes + " (-e)", ExecutorException.USAGE);
        }
        if (stepFactor <= 1 && stepBytes <= 0 && maxBytes > minBytes) {
            throw new ExecutorException("step must be > 0: give -i BYTES > 0 or -f FACTOR > 1",
                    ExecutorException.USAGE);
        }
        if (stepFactor > 1 && minBytes == 0 && maxBytes > 0) {
            throw new ExecutorException("-f needs -b > 0: a multiplicative sweep from 0 bytes never grows",
                    ExecutorException.USAGE);
        }
    }

    /** @return the sizes of the timed sweep, in order, bytes */
    public List<Long> sizes() {
        List<Long> out = new ArrayList<>();
        long size = minBytes;
        while (size <= maxBytes) {
            out.add(size);
            long next = stepFactor > 1 ? size * stepFactor : size + stepBytes;
            if (next <= size) {
                break;
            }
            size = next;
        }
        return out;
    }

    /** @return the warm-up sizes (factor 2), bytes */
    public List<Long> warmupSizes() {
        List<Long> out = new ArrayList<>();
        for (long size = minBytes; size <= maxBytes; size *= 2) {
            out.add(size);
            if (size == 0) {
                break;
            }
        }
        return out;
    }

    /**
     * The largest size that fits a GPU's memory, nccl-tests 2.19.6 {@code src/common.cu}: reserve 1 GiB per
     * 16 GiB installed (at most 4 GiB), another 1 GiB for the rest, and divide by 3 buffers with the data
     * check (send, receive, expected) or 2 without.
     *
     * @param totalMemBytes the smallest total memory of the GPUs used, bytes
     * @param dataCheck     true when the data check runs
     * @return the largest size, bytes (may be <= 0 on tiny GPUs)
     */
    public static long memoryLimit(long totalMemBytes, boolean dataCheck) {
        long reserve = Math.min(((totalMemBytes + 16 * GIB - 1) / (16 * GIB)) * GIB, 4 * GIB);
        return (totalMemBytes - reserve - GIB) / (dataCheck ? 3 : 2);
    }

    /**
     * @param limitBytes the memory limit ({@link #memoryLimit})
     * @return this sweep, or one shrunk so maxBytes <= limit (and minBytes <= maxBytes), as nccl-tests does
     */
    public SizeSweep shrinkTo(long limitBytes) {
        if (maxBytes <= limitBytes) {
            return this;
        }
        long max = Math.max(0, limitBytes);
        return new SizeSweep(Math.min(minBytes, max), max, stepBytes, stepFactor);
    }
}
