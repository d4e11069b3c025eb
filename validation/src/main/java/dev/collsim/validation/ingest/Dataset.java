package dev.collsim.validation.ingest;

import dev.collsim.nccl.Collective;
import dev.collsim.nccl.DataType;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * One measured run: a collective swept over sizes on a fixed set of ranks with fixed settings.
 * A file may hold several datasets (one-node and two-node runs, runs with different environments).
 *
 * @param file        source file name as given by the user
 * @param label       human label: the run's section title in the file, or "table N"
 * @param line        1-based line where the dataset's table (or summary) starts
 * @param kind        what kind of source it is
 * @param collective  the collective measured
 * @param dataType    element type, or null when the source does not say
 * @param nRanks      ranks (GPUs), >= 1
 * @param nHosts      hosts (NCCL nodes), 0 when unknown
 * @param gpuModel    GPU name as printed (e.g. {@code NVIDIA H100 80GB HBM3}), or empty when unknown
 * @param ncclRelease the NCCL release the run states it ran ({@link NcclRelease#UNKNOWN} when it states none)
 * @param env         NCCL_* (and related) settings that applied to this run
 * @param header      the file's {@code #@} provenance header
 * @param ranks       the nccl-tests rank lines (may be empty)
 * @param points      measured sizes, in file order (may be empty for summaries and footer-only datasets)
 * @param avgBusBw    nccl-tests' {@code Avg bus bandwidth} footer, GB/s, or NaN when absent
 * @param summaryMaxBusBw for {@link DatasetKind#SUMMARY}: the maximum busbw stated, GB/s; NaN otherwise
 * @param log         what the NCCL_DEBUG=INFO lines of this run said ({@link NcclLog#EMPTY} when none)
 * @param notes       readers' remarks
 * @param launch      how the benchmark process drove its GPUs ({@link LaunchShape#UNKNOWN} when the file does not
 *                    say)
 * @param rounding    how far a reduced table's printed bandwidth decimals alone can lengthen its derived times
 *                    ({@link PrintedRounding#NONE} when no point is bound by 1 % or more, or no time was derived)
 */
public record Dataset(String file, String label, int line, DatasetKind kind, Collective collective,
        DataType dataType, int nRanks, int nHosts, String gpuModel, NcclRelease ncclRelease, Map<String, String> env,
        FileHeader header, List<RankInfo> ranks, List<PerfPoint> points, double avgBusBw, double summaryMaxBusBw,
        NcclLog log, List<Note> notes, LaunchShape launch, PrintedRounding rounding) {

    /** As the canonical constructor, no printed rounding to report. */
    public Dataset(String file, String label, int line, DatasetKind kind, Collective collective,
            DataType dataType, int nRanks, int nHosts, String gpuModel, NcclRelease ncclRelease, Map<String, String> env,
            FileHeader header, List<RankInfo> ranks, List<PerfPoint> points, double avgBusBw, double summaryMaxBusBw,
            NcclLog log, List<Note> notes, LaunchShape launch) {
        this(file, label, line, kind, collective, dataType, nRanks, nHosts, gpuModel, ncclRelease, env, header, ranks,
                points, avgBusBw, summaryMaxBusBw, log, notes, launch, PrintedRounding.NONE);
    }

    /** As the canonical constructor, the launch shape unknown and no printed rounding to report. */
    public Dataset(String file, String label, int line, DatasetKind kind, Collective collective,
            DataType dataType, int nRanks, int nHosts, String gpuModel, NcclRelease ncclRelease, Map<String, String> env,
            FileHeader header, List<RankInfo> ranks, List<PerfPoint> points, double avgBusBw, double summaryMaxBusBw,
            NcclLog log, List<Note> notes) {
        this(file, label, line, kind, collective, dataType, nRanks, nHosts, gpuModel, ncclRelease, env, header, ranks,
                points, avgBusBw, summaryMaxBusBw, log, notes, LaunchShape.UNKNOWN, PrintedRounding.NONE);
    }

    /** @throws IllegalArgumentException when nRanks is below 1 */
    public Dataset {
        Objects.requireNonNull(file, "file");
        Objects.requireNonNull(collective, "collective");
        Objects.requireNonNull(kind, "kind");
        label = label == null ? "" : label;
        gpuModel = gpuModel == null ? "" : gpuModel;
        ncclRelease = ncclRelease == null ? NcclRelease.UNKNOWN : ncclRelease;
        env = Map.copyOf(env);
        header = header == null ? FileHeader.EMPTY : header;
        ranks = List.copyOf(ranks);
        points = List.copyOf(points);
        log = log == null ? NcclLog.EMPTY : log;
        notes = List.copyOf(notes);
        launch = launch == null ? LaunchShape.UNKNOWN : launch;
        rounding = rounding == null ? PrintedRounding.NONE : rounding;
        if (nRanks < 1) {
            throw new IllegalArgumentException(file + ":" + line + ": nRanks must be >= 1, got " + nRanks);
        }
    }

    /**
     * @param hosts the host count the run is judged on (e.g. the hosts of a cluster the user named for a file that
     *              states none), >= 0
     * @return this dataset with that host count, everything else the same
     */
    public Dataset withHosts(int hosts) {
        return new Dataset(file, label, line, kind, collective, dataType, nRanks, hosts, gpuModel, ncclRelease, env,
                header, ranks, points, avgBusBw, summaryMaxBusBw, log, notes, launch, rounding);
    }

    /** @return {@code file:line (label)}, for evidence in reports */
    public String id() {
        return file + ":" + line + (label.isEmpty() ? "" : " (" + label + ")");
    }

    /** @return the readers' warnings about this dataset ({@link Note#isWarning()}), in file order */
    public List<Note> warnings() {
        return notes.stream().filter(Note::isWarning).toList();
    }

    /**
     * The release the run is taken to have used. A date with a remark ({@code 2023-07 (the commits)}, {@code 2024
     * (doc revision; run date not printed)}, {@code 2023-07 (nvidia-smi on the page: ...)}) names the run's day or a
     * day after it (a page, commit or document cannot show a run made later), so its leading date
     * ({@link NcclRelease#leadingDate}) bounds the release from above: no release tagged after it can have made the
     * run. The newest release out by that date is taken, as for a date without a remark; the newest collsim carries
     * ({@code NcclVersion.DEFAULT}, 2.30.7 of 2026-06-04) would be one the run cannot have used.
     *
     * @return the one it states ({@link #ncclRelease}), else the one current at the date its {@code #@ date} starts
     *         with ({@link NcclRelease#currentAt} of {@link NcclRelease#leadingDate}), else {@link NcclRelease#UNKNOWN}
     */
    public NcclRelease runRelease() {
        return ncclRelease.known() ? ncclRelease
                : NcclRelease.currentAt(NcclRelease.leadingDate(header.text("date")));
    }

    /** @return GPUs per host (nRanks / nHosts), or nRanks when hosts are unknown */
    public int gpusPerHost() {
        return nHosts > 0 ? Math.max(1, nRanks / nHosts) : nRanks;
    }

    /** @return the highest busbw over all points and both halves, GB/s; or the summary maximum */
    public OptionalDouble peakBusBw() {
        if (kind == DatasetKind.SUMMARY) {
            return OptionalDouble.of(summaryMaxBusBw);
        }
        return points.stream().mapToDouble(PerfPoint::peakBusBw).max();
    }

    /** @return the point with the largest size, if any */
    public Optional<PerfPoint> largest() {
        return points.stream().max(Comparator.comparingLong(PerfPoint::sizeBytes));
    }
}
