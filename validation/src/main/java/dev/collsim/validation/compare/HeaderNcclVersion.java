package dev.collsim.validation.compare;

import dev.collsim.simulator.channel.NetPluginLatency;
import dev.collsim.simulator.tuning.NcclVersion;
import dev.collsim.topology.NetworkClass;
import dev.collsim.topology.Topology;
import dev.collsim.validation.ingest.Dataset;
import dev.collsim.validation.ingest.NcclRelease;
import java.util.Locale;
import java.util.Optional;

/**
 * Which NCCL release compare models for a dataset, and the line that says so. collsim carries the tuning tables and
 * rules of a few releases ({@link NcclVersion}); a file that states its release ({@link Dataset#ncclRelease}) is
 * modelled with the entry nearest to it that is not newer ({@link NcclVersion#modelling}): 2.29.7 as 2.28.9, 2.30.4
 * as 2.30.7, and 2.18 to 2.27 with 2.28.9's tables under their own release's tuning rules where those differ (the line
 * then says so: {@code NCCL 2.28.9 modelled (file states 2.20.5), the oldest release collsim models in full, with
 * NCCL 2.19-2.20's own bandwidth factors, ...}, {@link NcclVersion#rulesNote}). A file that states none but whose
 * {@code #@ date} is one date, or starts with one before a remark ({@link Dataset#runRelease}), is attributed the
 * release current then ({@link NcclRelease#currentAt}: the newest tagged by that day, month's end, or for a year
 * alone 30 June) and modelled the same way; a file with neither takes {@link NcclVersion#DEFAULT}. A release the
 * user names ({@code --nccl-version}) wins over the file. Stateless.
 */
public final class HeaderNcclVersion {

    private HeaderNcclVersion() {
    }

    /**
     * @param d     the dataset
     * @param given the release the user named, or empty to follow the file
     * @return the release to model the dataset with
     */
    public static NcclVersion modelled(Dataset d, Optional<NcclVersion> given) {
        NcclRelease run = release(d);
        return given.orElseGet(() -> run.known() ? NcclVersion.modelling(run.minor()) : NcclVersion.DEFAULT);
    }

    /**
     * @param d the dataset
     * @return the release the run is taken to have used ({@link Dataset#runRelease}): the one it states, else the one
     *         current at its date ({@link NcclRelease#currentAt}), else {@link NcclRelease#UNKNOWN}
     */
    public static NcclRelease release(Dataset d) {
        return d.runRelease();
    }

    /**
     * @param d     the dataset
     * @param given the release the user named, or empty to follow the file
     * @return the line naming the release modelled and why, e.g. {@code NCCL 2.28.9 modelled (file states 2.29.2)} or
     *         {@code NCCL 2.28.9 modelled (file states 2.27.3), the oldest release collsim models in full, with NCCL
     *         2.27's own bandwidth factors, latencies and allowed algorithms and protocols where they differ
     *         (docs/nccl-releases.md)}
     */
    public static String line(Dataset d, Optional<NcclVersion> given) {
        NcclRelease stated = d.ncclRelease();
        NcclRelease run = release(d);
        String date = d.header().text("date").trim();
        String lead = NcclRelease.leadingDate(date).trim();
        String file = stated.known() ? "file states " + stated : !run.known() ? "file states no release"
                : "file states no release; " + run + " assumed, the newest out by its date " + lead
                + (lead.length() == 4 ? " (a year alone: by 30 June)" : "") + (lead.equals(date) ? ""
                : " (its date '" + date + "': a run's day or a later one, so no newer release can have made it)");
        String why = given.isPresent() ? "--nccl-version; " + file : run.known() ? file : file + ": the default";
        NcclVersion v = modelled(d, given);
        return "NCCL " + v.tables().text() + " modelled (" + why + ")" + v.rulesNote();
    }

    /**
     * The run's own NCCL 2 minor release for the model's older-run rules ({@code NcclPredictor#prepare} with it).
     *
     * @param d     the dataset
     * @param given the release the user named, or empty to follow the file
     * @return the release the run is taken to have used ({@link #release}) when no release is given and it is known,
     *         else the modelled entry's
     */
    public static int runMinor(Dataset d, Optional<NcclVersion> given) {
        NcclRelease run = release(d);
        return given.isEmpty() && run.known() ? run.minor() : modelled(d, given).minor();
    }

    /**
     * Whether the run's NCCL reads the latency a net plugin reports ({@code NetPluginLatency#readBy}: from 2.12).
     *
     * @param d     the dataset
     * @param given the release the user named, or empty to follow the file
     * @return false only for a run taken to be of NCCL before 2.12 ({@link #release}) with no release given
     */
    public static boolean readsPluginLatency(Dataset d, Optional<NcclVersion> given) {
        return NetPluginLatency.readBy(runMinor(d, given));
    }

    /**
     * @param d     the dataset
     * @param given the release the user named, or empty to follow the file
     * @param topo  the cluster (its network class between the hosts)
     * @return the assumption line when the run's NCCL does not read a latency its plugin reports
     */
    public static Optional<String> pluginLatencyLine(Dataset d, Optional<NcclVersion> given, Topology topo) {
        NetworkClass net = topo.networkClass();
        if (topo.hostCount() < 2 || readsPluginLatency(d, given) || NetPluginLatency.reportedUs(net) == 0) {
            return Optional.empty();
        }
        return Optional.of(String.format(Locale.ROOT, "NCCL %s predates the net plugin's latency (read from 2.%d): the"
                + " %.0f us the %s plugin reports is left out of NCCL's choice (the time never charges it)", release(d),
                NetPluginLatency.FIRST_MINOR, NetPluginLatency.reportedUs(net), net.label()));
    }
}
