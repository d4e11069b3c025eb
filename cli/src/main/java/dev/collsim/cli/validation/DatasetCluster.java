package dev.collsim.cli.validation;

import dev.collsim.cli.ExitCodes;
import dev.collsim.cli.UserError;
import dev.collsim.io.InputException;
import dev.collsim.topology.Gpu;
import dev.collsim.topology.Topology;
import dev.collsim.topology.catalog.Catalog;
import dev.collsim.topology.catalog.HostType;
import dev.collsim.topology.io.ClusterLoader;
import dev.collsim.topology.io.ClusterSource;
import dev.collsim.validation.compare.ClusterGuess;
import dev.collsim.validation.ingest.Dataset;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A measured dataset's ranks on the cluster compare, calibrate and tune were given with {@code -c} (resolved once by
 * {@link ClusterLoader#resolve}); all three place datasets the same way. A catalog host type ({@code -c dgx-h100},
 * {@code NAMExN}, {@code NAME:N}) takes the dataset's host count (from its rank lines, else its ranks over the
 * type's GPUs per host), so a file with 8-rank and 16-rank runs is compared on 1 and 2 hosts; where {@code NAMExN}
 * named another count, one stderr line says what was resized. Any other cluster (a machine file, a YAML cluster) is
 * used as loaded. Ranks fill the first GPUs of each host.
 */
final class DatasetCluster {

    private DatasetCluster() {
    }

    /**
     * @param source the {@code -c} cluster
     * @param d      the dataset
     * @param err    where a resize is said, in one line ({@code collsim: -c dgx-h100x2 resized to 1 host for ...})
     * @return the cluster and the dataset's ranks on it
     * @throws InputException when the hosts cannot be built
     * @throws UserError      (exit 2) when the dataset's ranks or hosts do not fit the cluster
     */
    static ClusterGuess place(ClusterSource source, Dataset d, PrintWriter err) throws InputException {
        Optional<HostType> type = catalogType(source);
        if (type.isEmpty()) {
            return onLoaded(source.topology(), source.name(), d);
        }
        int perHostMax = type.get().gpusPerHost();
        int needed = d.nHosts() > 0 ? d.nHosts() : Math.max(1, (int) Math.ceil(d.nRanks() / (double) perHostMax));
        boolean explicit = source.origin() == ClusterSource.Origin.HOSTS;
        int hosts = needed;
        if (explicit && source.spec().count() != needed) {
            // the same rule as calibrate: a dataset is compared on the host count it ran on, never spread thinner
            err.println("collsim: -c " + source.name() + " has " + source.spec().count() + " host(s); " + d.id()
                    + " ran on " + needed + " (" + d.nRanks() + " ranks): resized to "
                    + (type.get().hostsPerNvlinkDomain() > 1 ? needed + " tray(s) of " + type.get().name()
                    : type.get().name() + ":" + needed) + " for it");
        }
        Topology topo = explicit && source.spec().count() == needed ? source.topology()
                : ClusterLoader.hosts(type.get(), hosts).topology();
        int perHost = (int) Math.ceil(d.nRanks() / (double) hosts);
        if (perHost > perHostMax) {
            throw new UserError(d.id() + " has " + d.nRanks() + " ranks on " + hosts + " host(s), more than the "
                    + hosts + " x " + perHostMax + " GPUs of -c " + source.name(), ExitCodes.USAGE);
        }
        List<Gpu> ranks = new ArrayList<>();
        for (int h = 0; h < hosts && ranks.size() < d.nRanks(); h++) {
            List<Gpu> g = topo.gpusOf(h);
            for (int i = 0; i < perHost && ranks.size() < d.nRanks(); i++) {
                ranks.add(g.get(i));
            }
        }
        List<String> assumed = explicit || needed == source.spec().count() ? List.of()
                : List.of(hostsAssumed(source, type.get(), d, needed));
        return new ClusterGuess(topo, ranks, "catalog:" + type.get().name() + " (-c " + source.name() + ")", assumed);
    }

    /**
     * @return the {@code assumed:} line for a host type given without a count whose dataset ran on another number of
     *         hosts: how many hosts it used and why (the file's host count, else its ranks over the type's GPUs)
     */
    static String hostsAssumed(ClusterSource source, HostType type, Dataset d, int hosts) {
        String why = d.nHosts() > 0 ? "the file puts its " + d.nRanks() + " ranks on " + hosts + " hosts"
                : d.nRanks() + " ranks over " + type.gpusPerHost() + " GPUs per " + type.name() + " host need " + hosts
                + " (the file names no host count)";
        return hosts + " host(s) of " + type.name() + ", not the " + source.spec().count() + " that -c " + source.name()
                + " names: " + why;
    }

    /**
     * @return the catalog host type when {@code -c} named one (bare, where a shipped config of the same name, one
     *         such host, is read as the type) or N hosts of one; empty for files and other configs
     */
    static Optional<HostType> catalogType(ClusterSource source) {
        return switch (source.origin()) {
            case HOSTS, HOST_TYPE -> Optional.of(source.spec().hostType());
            case CONFIG -> Catalog.hostType(source.name()).filter(t -> source.editable() && source.spec().count() == 1
                    && source.spec().fabric() == null && source.spec().hostType().name().equals(t.name()));
            case FILE -> Optional.empty();
        };
    }

    /** Ranks on a loaded cluster: the first nRanks/hosts GPUs of each of the first hosts. */
    private static ClusterGuess onLoaded(Topology topo, String value, Dataset d) {
        int hosts = d.nHosts() > 0 ? d.nHosts() : topo.hostCount();
        if (hosts > topo.hostCount()) {
            throw new UserError(d.id() + " ran on " + hosts + " hosts; cluster " + value + " has "
                    + topo.hostCount() + (topo.hostCount() > 1 ? "" : " (a machine file or NCCL XML describes one host;"
                    + " allowed: a cluster of " + hosts + " or more hosts: -c TYPE:" + hosts + " for a catalog host type,"
                    + " or a YAML cluster spec)"), ExitCodes.USAGE);
        }
        int perHost = (int) Math.ceil(d.nRanks() / (double) hosts);
        List<Gpu> ranks = new ArrayList<>();
        for (int h = 0; h < topo.hostCount() && ranks.size() < d.nRanks(); h++) {
            List<Gpu> g = topo.gpusOf(h);
            for (int i = 0; i < Math.min(perHost, g.size()) && ranks.size() < d.nRanks(); i++) {
                ranks.add(g.get(i));
            }
        }
        if (ranks.size() < d.nRanks()) {
            throw new UserError(d.id() + " has " + d.nRanks() + " ranks; cluster " + value + " offers "
                    + ranks.size() + " in " + hosts + " hosts", ExitCodes.USAGE);
        }
        return new ClusterGuess(topo, ranks, value + " (-c)", List.of());
    }
}
