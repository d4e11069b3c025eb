package dev.collsim.validation.compare;

import dev.collsim.topology.NetworkClass;
import dev.collsim.validation.ingest.Dataset;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The network transport a dataset's run used, as its file says it: first NCCL's own INFO lines of the run
 * ({@code NetworkLog.networkClass}: what NCCL used, not what was asked), then the run's
 * NCCL settings
 * ({@code NCCL_NET}, {@code NCCL_IB_DISABLE=1}: NCCL's socket transport), then the run's label, then the header's
 * interconnect and hardware text ({@link NetworkClass#detect}). A run whose settings turn the IB verbs network on
 * ({@code NCCL_IB_DISABLE=0} or an {@code NCCL_IB_HCA} list without {@code NCCL_IB_DISABLE=1}) is never given the
 * socket class from a header that describes several runs. Stateless.
 *
 * @param networkClass the class
 * @param from         where it was read, for the assumption line
 */
public record HeaderNetworkClass(NetworkClass networkClass, String from) {

    /** What {@link #otherThanGiven} says is of the given network in compare's output: its per-size errors. */
    public static final String ERRORS = "the errors below are";

    /** What {@link #otherThanGiven} says is of the given network in tune's output: the fit and the advice. */
    public static final String FIT = "the fit on this file and the advice are";

    /** The NCCL settings that choose NCCL's network transport, read here as the class. */
    static final Set<String> SETTINGS = Set.of("NCCL_NET", "NCCL_IB_DISABLE");

    /**
     * @param d the dataset
     * @return the class the file names, empty when it names none
     */
    static Optional<HeaderNetworkClass> of(Dataset d) {
        Optional<NetworkClass> logged = d.log().net().networkClass();
        if (logged.isPresent()) {
            return Optional.of(new HeaderNetworkClass(logged.get(), "the NCCL INFO log"));
        }
        Map<String, String> env = d.env();
        String net = env.getOrDefault("NCCL_NET", "");
        String disable = env.getOrDefault("NCCL_IB_DISABLE", "").trim();
        if (!net.isBlank()) {
            Optional<NetworkClass> c = net.trim().equalsIgnoreCase("IB") ? Optional.of(NetworkClass.INFINIBAND)
                    : NetworkClass.detect(net + (net.toLowerCase(Locale.ROOT).contains("socket") ? " tcp" : ""));
            if (c.isPresent()) {
                return Optional.of(new HeaderNetworkClass(c.get(), "NCCL_NET=" + net.trim()));
            }
        }
        if ("1".equals(disable)) {
            return Optional.of(new HeaderNetworkClass(NetworkClass.SOCKET, "NCCL_IB_DISABLE=1"));
        }
        boolean verbs = "0".equals(disable) || env.containsKey("NCCL_IB_HCA");
        Optional<NetworkClass> fromLabel = NetworkClass.detect(d.label(), !verbs);
        if (fromLabel.isPresent() && fromLabel.get() == NetworkClass.SLINGSHOT && PluginAbsent.says(d.label())) {
            return Optional.of(new HeaderNetworkClass(NetworkClass.SOCKET, PluginAbsent.FROM));
        }
        if (fromLabel.isPresent()) {
            return Optional.of(new HeaderNetworkClass(fromLabel.get(), "the run's label"));
        }
        String text = d.header().text("interconnect") + " " + d.header().text("hardware");
        Optional<NetworkClass> c = NetworkClass.detect(text, !verbs);
        return c.map(x -> new HeaderNetworkClass(x, "the header's interconnect"));
    }

    /**
     * @param d the dataset
     * @param c the cluster the user gave
     * @param modelled what is of the given cluster's network in the command's output ({@link #ERRORS} for compare,
     *                 {@link #FIT} for tune -m)
     * @return a line when the run spans hosts of that cluster and the file names another network class than the
     *         cluster's ({@link #of}: a RoCE INFO log compared on {@code -c dgx-h200x2}, whose
     *         catalog hosts are joined by InfiniBand): the given cluster's class stands, as for NCCL_NET, and the
     *         line says so and how to model the file's
     */
    public static Optional<String> otherThanGiven(Dataset d, ClusterGuess c, String modelled) {
        Optional<HeaderNetworkClass> read = HeaderNetworkClass.of(d);
        NetworkClass given = c.topology().networkClass();
        boolean hosts = c.ranks().stream().map(g -> g.host()).distinct().count() > 1;
        if (!hosts || read.isEmpty() || read.get().networkClass() == given) {
            return Optional.empty();
        }
        NetworkClass file = read.get().networkClass();
        return Optional.of("the given cluster's network class, " + given.label() + ", although " + read.get().from()
                + " shows " + file.label() + ": " + modelled + " of that network; add --network "
                + file.yamlName() + " to model the run's");
    }
}
