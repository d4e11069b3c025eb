package dev.collsim.validation.ingest;

import dev.collsim.topology.PathType;
import java.time.DateTimeException;
import java.time.LocalDate;
import java.time.YearMonth;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The NCCL release a measured run states it ran: read once by the readers from the run's NCCL INFO log
 * ({@code NCCL version 2.27.3+cuda12.8}), nccl-tests' {@code nccl-library=22809} code, a JSON file's
 * {@code nccl_version}, or the {@code #@ nccl_version} provenance header, in that order
 * ({@code DatasetAssembler.release}). Only the release matters here, not the build ({@code +cuda12.8}). A run that
 * states none but is dated is attributed the release current at its date ({@link #currentAt}). Immutable.
 *
 * @param minor NCCL 2 minor release, e.g. 27; -1 when the file states none ({@link #UNKNOWN})
 * @param patch patch release, e.g. 3; -1 when the file states only the minor release ({@code 2.26})
 */
public record NcclRelease(int minor, int patch) {

    /** A run that states no release. */
    public static final NcclRelease UNKNOWN = new NcclRelease(-1, -1);

    /** A {@code #@ date} that is one date: {@code yyyy}, {@code yyyy-mm} or {@code yyyy-mm-dd}, nothing else. */
    private static final Pattern DATE = Pattern.compile("^\\s*(\\d{4})(?:-(\\d{2})(?:-(\\d{2}))?)?\\s*$");
    /** A {@code #@ date} that starts with one date followed by a remark in parentheses ({@link #leadingDate}). */
    private static final Pattern DATED_REMARK = Pattern.compile("^\\s*(\\d{4}(?:-\\d{2}(?:-\\d{2})?)?)\\s+\\(");

    /**
     * NCCL 2 releases from 2.3.7 on and the day each was tagged: the commit dates of the tags {@code v2.x.y-1} of
     * github.com/NVIDIA/nccl (read with {@code git for-each-ref refs/tags}). Each entry is release@yyyy-mm-dd.
     */
    private static final String[] TAGGED = ("2.3.7@2018-10-24 2.4.2@2019-01-29 2.4.6@2019-04-05 2.4.7@2019-05-10"
            + " 2.4.8@2019-06-25 2.5.6@2019-11-19 2.5.7@2020-01-16 2.6.4@2020-03-20 2.7.3@2020-06-08 2.7.5@2020-06-26"
            + " 2.7.6@2020-06-26 2.7.8@2020-07-27 2.8.3@2020-11-17 2.8.4@2021-02-09 2.9.6@2021-04-12 2.9.8@2021-05-10"
            + " 2.9.9@2021-05-12 2.10.3@2021-07-08 2.11.4@2021-09-08 2.12.7@2022-03-02 2.12.10@2022-03-30"
            + " 2.12.12@2022-05-13 2.13.4@2022-07-11 2.14.3@2022-08-18 2.15.1@2022-09-27 2.15.5@2022-10-25"
            + " 2.16.2@2022-11-30 2.16.5@2023-02-02 2.17.1@2023-03-01 2.18.1@2023-04-18 2.18.3@2023-06-14"
            + " 2.18.5@2023-08-23 2.19.1@2023-09-26 2.19.3@2023-09-26 2.18.6@2023-10-10 2.19.4@2023-11-13"
            + " 2.20.3@2024-02-13 2.20.5@2024-02-26 2.21.5@2024-04-02 2.22.3@2024-06-19 2.23.4@2024-09-16"
            + " 2.24.3@2025-01-07 2.25.1@2025-01-27 2.26.2@2025-03-12 2.26.3@2025-04-22 2.26.5@2025-04-22"
            + " 2.26.6@2025-05-20 2.27.3@2025-05-29 2.27.5@2025-06-18 2.27.6@2025-07-11 2.27.7@2025-07-24"
            + " 2.28.3@2025-09-02 2.28.7@2025-10-17 2.28.9@2025-11-10 2.29.2@2025-12-24 2.29.3@2026-02-03"
            + " 2.29.7@2026-02-27 2.30.3@2026-04-14 2.30.4@2026-04-22 2.30.7@2026-06-04").split(" ");

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

    /**
     * The date a {@code #@ date} value starts with when a remark in parentheses follows it, e.g. {@code 2023-07} of
     * {@code 2023-07 (nvidia-smi on the page: Fri Jul 14 2023)}; a value that is one date, a range ({@code 2024-2025},
     * {@code 2025-06/07}) or words is returned as it is, for {@link #currentAt} to read or refuse.
     *
     * @param value the {@code #@ date} text; null allowed (read as empty)
     * @return the leading {@code yyyy}, {@code yyyy-mm} or {@code yyyy-mm-dd}, else the value
     */
    public static String leadingDate(String value) {
        String v = value == null ? "" : value;
        Matcher m = DATED_REMARK.matcher(v);
        return m.find() ? m.group(1) : v;
    }

    /**
     * The release current at a run's date, for a run that states none: the newest (highest) NCCL release tagged on or
     * before the date's last day ({@link #TAGGED}). A day is its own last day; a month ({@code 2024-04}) ends on its
     * last day; a year alone ({@code 2024}) is read as its middle, 30 June, the day that splits the year's possible
     * run days in half (so {@code 2024} gives 2.22.3, tagged 2024-06-19). The rule assumes the run used the newest
     * release out at its date; a run that used an older one (a container pinned earlier) is misplaced by it, which is
     * why a stated release always wins. A date before 2.3.7 gives 2.3 (older than every release collsim knows).
     *
     * @param date the {@code #@ date} text, e.g. {@code 2024}, {@code 2025-06} or {@code 2024-09-24}; null allowed
     * @return the release, or {@link #UNKNOWN} when the text is not one date (empty, a range, words)
     */
    public static NcclRelease currentAt(String date) {
        Matcher m = DATE.matcher(date == null ? "" : date);
        if (!m.find()) {
            return UNKNOWN;
        }
        int year = Integer.parseInt(m.group(1));
        LocalDate day;
        try {
            day = m.group(2) == null ? LocalDate.of(year, 6, 30)
                    : m.group(3) == null ? YearMonth.of(year, Integer.parseInt(m.group(2))).atEndOfMonth()
                    : LocalDate.of(year, Integer.parseInt(m.group(2)), Integer.parseInt(m.group(3)));
        } catch (DateTimeException e) {
            return UNKNOWN;
        }
        NcclRelease best = new NcclRelease(3, -1);
        for (String t : TAGGED) {
            NcclRelease r = parse(t.substring(0, t.indexOf('@')));
            if (!LocalDate.parse(t.substring(t.indexOf('@') + 1)).isAfter(day) && r.newerThan(best)) {
                best = r;
            }
        }
        return best;
    }

    private boolean newerThan(NcclRelease o) {
        return minor != o.minor ? minor > o.minor : patch > o.patch;
    }

    /** NCCL's path-type numbers from 2.12 to 2.25 ({@code src/graph/topo.h}, read at v2.12.7-1, v2.16.5-1, v2.25.1-1). */
    private static final List<PathType> PATHS_2_12 = List.of(PathType.LOC, PathType.NVL, PathType.NVB, PathType.PIX,
            PathType.PXB, PathType.PXN, PathType.PHB, PathType.SYS);
    /** Before 2.12 (no PXN; read at v2.8.4-1 and v2.11.4-1). */
    private static final List<PathType> PATHS_2_8 = List.of(PathType.LOC, PathType.NVL, PathType.NVB, PathType.PIX,
            PathType.PXB, PathType.PHB, PathType.SYS);
    /** 2.26 (C2C added; read at v2.26.2-1 and v2.26.6-1). */
    private static final List<PathType> PATHS_2_26 = List.of(PathType.LOC, PathType.NVL, PathType.NVB, PathType.C2C,
            PathType.PIX, PathType.PXB, PathType.PXN, PathType.PHB, PathType.SYS);
    /** 2.27.3 (P2C added after PXN; read at v2.27.3-1). */
    private static final List<PathType> PATHS_2_27_3 = List.of(PathType.LOC, PathType.NVL, PathType.NVB,
            PathType.C2C, PathType.PIX, PathType.PXB, PathType.PXN, PathType.P2C, PathType.PHB, PathType.SYS);
    /** 2.27.5 on (P2C before PXN, collsim's {@link PathType} order; read at v2.27.5-1, v2.29.7-1, v2.30.7-1). */
    private static final List<PathType> PATHS_2_27_5 = List.of(PathType.LOC, PathType.NVL, PathType.NVB,
            PathType.C2C, PathType.PIX, PathType.PXB, PathType.P2C, PathType.PXN, PathType.PHB, PathType.SYS);

    /**
     * The path type an NCCL path-type number of this release means, as its INFO lines print them (the GPU Direct RDMA
     * line's {@code distance 6 > 4}, {@link NetworkLog.GdrDistance}). The numbers are NCCL's {@code PATH_*} defines,
     * which moved: PXN was added in 2.12, C2C in 2.26, P2C in 2.27 (after PXN in 2.27.3, before it from 2.27.5); so
     * 6 is PHB in 2.16.5 but PXN in 2.26. Only LOC to SYS are mapped (NET and DIS are not GPU-NIC distances).
     *
     * @param number the printed number
     * @return the type; empty when the release is unknown, the number out of range, or its meaning differs among the
     *         patches of a release stated without its patch (2.27)
     */
    public Optional<PathType> pathType(int number) {
        if (!known() || number < 0) {
            return Optional.empty();
        }
        List<PathType> order = minor < 12 ? PATHS_2_8 : minor < 26 ? PATHS_2_12 : minor == 26 ? PATHS_2_26
                : minor > 27 || patch >= 5 ? PATHS_2_27_5 : PATHS_2_27_3;
        if (number >= order.size() || minor == 27 && patch < 0 && order.get(number) != PATHS_2_27_5.get(number)) {
            return Optional.empty();
        }
        return Optional.of(order.get(number));
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
