package dev.collsim.nccl;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The message sizes of a sweep, with nccl-tests' semantics (nccl-tests 2.19.6 {@code src/common.cu}: option parsing
 * in {@code parseArgs}, sizes in {@code parsesize}, the loops in {@code TimeTest}). Every command that sweeps sizes
 * ({@code predict}, {@code run}, what-if reports) uses this one type, so {@code -b/-e/-i/-f} mean the same everywhere.
 *
 * <ul>
 *   <li>The timed sizes go from {@code minBytes} while {@code size <= maxBytes}: {@code size * stepFactor} when
 *       {@code stepFactor > 1}, else {@code size + stepBytes} (nccl-tests' loop, {@code TimeTest}).</li>
 *   <li>The warm-up visits {@code minBytes, 2 minBytes, 4 minBytes, ...} up to {@code maxBytes}, whatever the
 *       step.</li>
 *   <li>{@code minBytes > maxBytes} is an error, as in nccl-tests ({@code "invalid sizes for 'minbytes' and
 *       'maxbytes'"}).</li>
 *   <li>Where nccl-tests would never end, this type refuses the sweep instead: {@code -b 0} with {@code -f > 1} and
 *       {@code -e > 0} ({@code 0 x f} stays 0), and {@code -i 0} without {@code -f > 1} when {@code -e > -b}. A sweep
 *       whose only size is 0 ({@code -b 0 -e 0}) is one point. nccl-tests' warm-up, which always doubles, never
 *       leaves size 0; here it visits 0 once and goes on doubling from nothing, i.e. stops.</li>
 *   <li>Sizes are unsigned 64-bit in nccl-tests; here a product that would pass {@link Long#MAX_VALUE} ends the
 *       sweep. A sweep of more than {@link #MAX_POINTS} sizes is refused (a guard nccl-tests does not have).</li>
 * </ul>
 * How a size becomes an element count for a datatype and a number of ranks ({@code getCollByteCount}) is not this
 * type's job: {@link CollGeometry} does that.
 *
 * @param minBytes   first size, bytes, >= 0 (nccl-tests {@code -b}, default 32M)
 * @param maxBytes   last size, bytes, >= minBytes (nccl-tests {@code -e}, default 32M)
 * @param stepBytes  additive step, bytes, >= 0; used when stepFactor <= 1 (nccl-tests {@code -i}, default 1M)
 * @param stepFactor multiplicative step, >= 0; off when <= 1 (nccl-tests {@code -f}, default 1)
 */
public record SizeSweep(long minBytes, long maxBytes, long stepBytes, long stepFactor) {

    /** nccl-tests 2.19.6's default {@code -b} ({@code src/common.cu}), as the option's text: 32 MiB. */
    public static final String DEFAULT_MIN = "32M";

    /** nccl-tests 2.19.6's default {@code -e} ({@code src/common.cu}), as the option's text: 32 MiB. */
    public static final String DEFAULT_MAX = "32M";

    /** nccl-tests 2.19.6's default {@code -i} ({@code src/common.cu}), as the option's text: 1 MiB. */
    public static final String DEFAULT_STEP = "1M";

    /** nccl-tests 2.19.6's default {@code -f} ({@code src/common.cu}), as the option's text: 1 (off). */
    public static final String DEFAULT_FACTOR = "1";

    /** Most sizes a sweep may have (a guard against {@code -i 1} over gigabytes). */
    public static final int MAX_POINTS = 100_000;

    /** Bytes in a GiB (nccl-tests' {@code GB} in its memory sizing). */
    public static final long GIB = 1L << 30;

    /** The sizes {@link #parseBytes} accepts, in words. */
    public static final String ALLOWED = "a number of bytes with an optional K, M or G (powers of 1024, as"
            + " nccl-tests reads them), e.g. 8, 1K, 32M, 8G, 1.5M";

    /*
     * parsesize: sscanf("%lf %1s"), then the first letter K/k, M/m or G/g scales by 1024, 1024^2, 1024^3; any other
     * letter is an error; the rest of the text after the letter is ignored (so "8GB" and "8GiB" are 8 GiB). The
     * value is truncated to whole bytes by the (size_t) cast.
     */
    private static final Pattern SIZE = Pattern.compile("\\s*(\\d+(?:\\.\\d*)?|\\.\\d+)(?:[eE]([+-]?\\d+))?"
            + "\\s*(?:([KMGkmg])(?:[iI]?[bB])?)?\\s*");

    /**
     * nccl-tests 2.19.6's default sweep, {@code -b 32M -e 32M -i 1M -f 1}: the one home of those defaults, which
     * {@code collsim predict} and {@code collsim run} take as their option defaults. Declared after {@link #SIZE},
     * which it is parsed with.
     */
    public static final SizeSweep DEFAULT = parse(DEFAULT_MIN, DEFAULT_MAX, DEFAULT_STEP,
            Long.parseLong(DEFAULT_FACTOR));

    /**
     * What {@code -f} takes, in words: nccl-tests 2.19.6 {@code src/common.cu} reads it with {@code strtol} (a
     * whole number; {@code 0.5} would read as 0) and multiplies each size by it only when it is above 1 (its size
     * loop, {@code stepfactor > 1 ? size * stepfactor : size + stepbytes}).
     */
    public static final String FACTOR_ALLOWED = "a whole number, as nccl-tests reads it: above 1 it multiplies each"
            + " size, 0 or 1 adds the step bytes instead";

    /**
     * @throws IllegalArgumentException naming the nccl-tests option (-b, -e, -i, -f) when the sweep is empty,
     *                                  would never end, or has more than {@link #MAX_POINTS} sizes
     */
    public SizeSweep {
        check(minBytes, maxBytes, stepBytes, stepFactor, Flags.NCCL_TESTS);
    }

    /**
     * The names of the sweep's four options as the user typed them, for messages ({@code -f} or
     * {@code --stepfactor}).
     *
     * @param min    the {@code -b} option's name
     * @param max    the {@code -e} option's name
     * @param step   the {@code -i} option's name
     * @param factor the {@code -f} option's name
     */
    public record Flags(String min, String max, String step, String factor) {

        /** nccl-tests' short names. */
        public static final Flags NCCL_TESTS = new Flags("-b", "-e", "-i", "-f");
    }

    private static void check(long minBytes, long maxBytes, long stepBytes, long stepFactor, Flags f) {
        if (minBytes < 0 || maxBytes < 0 || stepBytes < 0) {
            throw new IllegalArgumentException("sizes must be >= 0 bytes, got " + f.min() + " " + minBytes + " "
                    + f.max() + " " + maxBytes + " " + f.step() + " " + stepBytes);
        }
        if (stepFactor < 0) {
            throw new IllegalArgumentException(f.factor() + " " + stepFactor + " is below 0; allowed: "
                    + FACTOR_ALLOWED);
        }
        if (minBytes > maxBytes) {
            throw new IllegalArgumentException("minimum size " + minBytes + " (" + f.min()
                    + ") is larger than maximum size " + maxBytes + " (" + f.max() + ")");
        }
        if (stepFactor > 1 && minBytes == 0 && maxBytes > 0) {
            throw new IllegalArgumentException(f.factor() + " " + stepFactor + " needs " + f.min() + " > 0: a"
                    + " multiplicative sweep from 0 bytes never grows (nccl-tests would repeat size 0 forever); use "
                    + f.min() + " 1 or more");
        }
        if (stepFactor <= 1 && stepBytes == 0 && maxBytes > minBytes) {
            throw new IllegalArgumentException("step must be > 0: give " + f.step() + " BYTES > 0 or " + f.factor()
                    + " FACTOR > 1");
        }
        if (stepFactor <= 1 && maxBytes > minBytes && (maxBytes - minBytes) / stepBytes >= MAX_POINTS) {
            throw new IllegalArgumentException("the sweep has more than " + MAX_POINTS + " sizes; use a larger "
                    + f.step() + " or " + f.factor());
        }
    }

    /**
     * A sweep from nccl-tests' option texts, its messages naming nccl-tests' short options.
     *
     * @param min    {@code -b} text
     * @param max    {@code -e} text
     * @param step   {@code -i} text
     * @param factor {@code -f} value
     * @return the sweep
     * @throws IllegalArgumentException naming the option and what is allowed
     */
    public static SizeSweep parse(String min, String max, String step, long factor) {
        return parse(min, max, step, factor, Flags.NCCL_TESTS);
    }

    /**
     * A sweep from option texts, its messages naming the options as the user typed them.
     *
     * @param min    {@code -b} text
     * @param max    {@code -e} text
     * @param step   {@code -i} text
     * @param factor {@code -f} value
     * @param flags  the options' names as typed
     * @return the sweep
     * @throws IllegalArgumentException naming the option as typed and what is allowed
     */
    public static SizeSweep parse(String min, String max, String step, long factor, Flags flags) {
        long minBytes = parseBytes(flags.min(), min);
        long maxBytes = parseBytes(flags.max(), max);
        long stepBytes = parseBytes(flags.step(), step);
        check(minBytes, maxBytes, stepBytes, factor, flags);
        return new SizeSweep(minBytes, maxBytes, stepBytes, factor);
    }

    /**
     * A multiplicative sweep ({@code -b min -e max -f factor}, nccl-tests' default {@code -i}).
     *
     * @param min    first size, bytes
     * @param max    last size, bytes
     * @param factor multiplicative step
     * @return the sweep
     * @throws IllegalArgumentException as the constructor
     */
    public static SizeSweep geometric(long min, long max, long factor) {
        return new SizeSweep(min, max, DEFAULT.stepBytes, factor);
    }

    /**
     * Reads a size as nccl-tests' {@code parsesize} does (nccl-tests 2.19.6 {@code src/common.cu}): a number, an
     * optional K, M or G (either case; powers of 1024) that may be followed by B or iB, truncated to whole bytes.
     * nccl-tests also ignores any other text after the letter and reads C's other number forms (hexadecimal,
     * inf); collsim refuses those, and T, so that a typo is not read as a size.
     *
     * @param flag the option, for the message (e.g. {@code -b}, or a spec field name)
     * @param text e.g. {@code 8}, {@code 32K}, {@code 1.5M}, {@code 8G}, {@code 8GB}
     * @return bytes, >= 0
     * @throws IllegalArgumentException naming the option, the text and {@link #ALLOWED}
     */
    public static long parseBytes(String flag, String text) {
        Matcher m = SIZE.matcher(text == null ? "" : text);
        if (!m.matches()) {
            throw new IllegalArgumentException(flag + " '" + text + "' is not a size; allowed: " + ALLOWED);
        }
        double v = Double.parseDouble(m.group(1) + (m.group(2) == null ? "" : "e" + m.group(2)));
        String unit = m.group(3) == null ? "" : m.group(3).toUpperCase(Locale.ROOT);
        double bytes = v * switch (unit) {
            case "K" -> 1024.0;
            case "M" -> 1024.0 * 1024;
            case "G" -> 1024.0 * 1024 * 1024;
            default -> 1.0;
        };
        if (bytes >= 0x1p63) {
            throw new IllegalArgumentException(flag + " '" + text + "' is too large");
        }
        return (long) bytes;
    }

    /** @return the timed sizes, in order, bytes */
    public List<Long> sizes() {
        List<Long> out = new ArrayList<>();
        long size = minBytes;
        while (size <= maxBytes) {
            out.add(size);
            if (stepFactor > 1) {
                if (size == 0 || size > maxBytes / stepFactor) {
                    break;
                }
                size *= stepFactor;
            } else {
                if (stepBytes == 0 || size > maxBytes - stepBytes) {
                    break;
                }
                size += stepBytes;
            }
        }
        return out;
    }

    /** @return the warm-up sizes (factor 2 from minBytes), bytes */
    public List<Long> warmupSizes() {
        List<Long> out = new ArrayList<>();
        for (long size = minBytes; size <= maxBytes; size *= 2) {
            out.add(size);
            if (size == 0 || size > maxBytes / 2) {
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
