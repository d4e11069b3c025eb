package dev.collsim.validation.ingest;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The NCCL release a measured run states it ran: read once by the readers from the run's NCCL INFO log
 * ({@code NCCL version 2.27.3+cuda12.8}), nccl-tests' {@code nccl-library=22809} code, a JSON file's
 * {@code nccl_version}, or the {@code #@ nccl_version} provenance header, in that order
 * ({@code DatasetAssembler.release}). Only the release matters here, not the build ({@code +cuda12.8}). Immutable.
 *
 * @param minor NCCL 2 minor release, e.g. 27; -1 when the file states none ({@link #UNKNOWN})
 * @param patch patch release, e.g. 3; -1 when the file states only the minor release ({@code 2.26})
 */
public record NcclRelease(int minor, int patch) {

    /** A run that states no release. */
    public static final NcclRelease UNKNOWN = new NcclRelease(-1, -1);

    /**
     * An NCCL 2 release in text: the first {@code 2.minor[.patch]} that is not part of a longer number (so
     * {@code cuda12.8} or a container's {@code 24.06} are not taken for a release).
     */
    private static final Pattern RELEASE = Pattern.compile("(?<![\\d.])2\\.(\\d{1,3})(?:\\.(\\d{1,3}))?(?![\\d])");

    /** @throws IllegalArgumentException when the minor release is negative but the patch is not */
    public NcclRelease {
        if (minor < -1 || patch < -1 || minor < 0 && patch >= 0) {
            throw new IllegalArgumentException("NCCL release 2." + minor + "." + patch);
        }
    }

    /**
     * @param text text naming a release, e.g. {@code 2.20.5+cuda12.4} or {@code likely 2.27.3 (per install notes)}
     * @return the first NCCL 2 release in it, or {@link #UNKNOWN}
     */
    public static NcclRelease parse(String text) {
        Matcher m = RELEASE.matcher(text == null ? "" : text);
        if (!m.find()) {
            return UNKNOWN;
        }
        return new NcclRelease(Integer.parseInt(m.group(1)), m.group(2) == null ? -1 : Integer.parseInt(m.group(2)));
    }

    /**
     * NCCL's {@code NCCL_VERSION_CODE} (NCCL {@code src/nccl.h.in}): major*10000 + minor*100 + patch from 2.9 on,
     * major*1000 + minor*100 + patch before.
     *
     * @param code the code, e.g. {@code 22809}; 0 or less when unknown
     * @return the release, or {@link #UNKNOWN} for a code that is not NCCL 2's
     */
    public static NcclRelease fromCode(int code) {
        if (code >= 20000 && code < 30000) {
            return new NcclRelease(code / 100 % 100, code % 100);
        }
        if (code >= 2000 && code < 3000) {
            return new NcclRelease(code / 100 % 10, code % 100);
        }
        return UNKNOWN;
    }

    /** @return true when the run states a release */
    public boolean known() {
        return minor >= 0;
    }

    /**
     * @param otherMinor an NCCL 2 minor release
     * @return true when this stated release is of an earlier minor release (false when unknown)
     */
    public boolean before(int otherMinor) {
        return known() && minor < otherMinor;
    }

    /** @return {@code 2.27.3} or {@code 2.26}; empty when unknown */
    public String text() {
        return !known() ? "" : patch < 0 ? "2." + minor : "2." + minor + "." + patch;
    }

    @Override
    public String toString() {
        return text();
    }
}
