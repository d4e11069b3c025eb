package dev.collsim.validation.compare;

import dev.collsim.topology.PathType;
import dev.collsim.topology.Topology;
import dev.collsim.topology.paths.PathFinder;
import dev.collsim.validation.ingest.Dataset;
import dev.collsim.validation.ingest.NetworkLog;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A run's NCCL settings as the model takes them onto a cluster, for compare ({@link Comparer}) and the accuracy and
 * calibration series ({@code calibration.SeriesBuilder}): which settings are applied, changed or ignored, each with
 * the assumption line that says so. Stateless.
 */
public final class RunSettings {

    private RunSettings() {
    }

    /**
     * The assumption line for a setting of the file the model does not take as an NCCL setting. NCCL_NET and
     * NCCL_IB_DISABLE choose NCCL's network transport, which the model takes as the cluster's network class: on a
     * cluster guessed from the file that class was read from them ({@link HeaderNetworkClass}), so they are part of
     * the model and get no line; on a cluster the user gave, its own class stands.
     *
     * @param key     the NCCL_* name
     * @param guessed true when the cluster was guessed from the dataset
     * @return the line, empty when the setting is part of the model
     */
    static Optional<String> ignored(String key, boolean guessed) {
        if (!HeaderNetworkClass.SETTINGS.contains(key)) {
            return Optional.of(key + " ignored (not part of the model)");
        }
        return guessed ? Optional.empty()
                : Optional.of(key + " ignored (it chooses NCCL's network transport; the given cluster's network class"
                        + " stands)");
    }

    /**
     * A dataset's NCCL settings as the model takes them on a cluster (compare, and the accuracy and calibration series
     * through {@code calibration.SeriesBuilder}): the log's word on GPU Direct RDMA ({@link #gdrOffFromLog}), a GDR
     * level on guessed paths ({@link #gdrLevelOnGuessedPaths}), P2P off from the header ({@link HeaderPcie#p2pOff}),
     * else P2P over NVLink only from the VM type ({@link NvlinkOnlyP2p}).
     *
     * @param d        the dataset
     * @param c        the cluster
     * @param guessed  true when the cluster was guessed from the dataset, not given
     * @param settings the dataset's settings, changed in place
     * @return the assumption lines: the GDR line, the run-title transport line, the P2P-off line, the older-NCCL-on-AMD
     *         line, the older-NCCL tree line ({@link OlderTreeThreshold}), the CollNet-off line
     *         ({@link #collNetOffFromLog}) and the older-NCCL CollNet line ({@link OlderCollNet}), each "" when
     *         unchanged
     */
    public static List<String> modelSettings(Dataset d, ClusterGuess c, boolean guessed, Map<String, String> settings) {
        Optional<String> gdr = gdrOffFromLog(d, c, settings);
        if (gdr.isEmpty() && guessed) {
            gdr = gdrLevelOnGuessedPaths(d, c, settings);
        }
        Optional<String> transport = HeaderPcie.runTransport(d, c.topology().hostCount(), settings);
        Optional<String> p2p = HeaderPcie.p2pOff(d, c.topology().hostCount(), settings)
                .or(() -> NvlinkOnlyP2p.apply(d, c, settings));
        Optional<String> olderAmd = OlderAmdP2p.apply(d, c.topology(), settings);
        Optional<String> collNetOff = collNetOffFromLog(d, settings);
        return List.of(gdr.orElse(""), transport.orElse(""), p2p.orElse(""), olderAmd.orElse(""),
                OlderTreeThreshold.apply(d, settings).orElse(""), collNetOff.orElse(""),
                OlderCollNet.apply(d, settings).orElse(""));
    }

    /**
     * The NCCL INFO log's word on GPU Direct RDMA between hosts wins over the guessed topology. A run whose log says
     * GDR was off is modelled with {@code NCCL_NET_GDR_LEVEL=LOC} (NCCL never uses GDR at that level, NCCL 2.30
     * {@code src/graph/paths.cc} {@code ncclTopoCheckGdr}), unless the run set the variable itself. A run whose log
     * says GDR was on drops its own NCCL_NET_GDR_LEVEL: the real GPU-NIC paths were within that level, which the
     * guessed host's paths need not be; unless the guessed path is the one the log prints
     * ({@link #guessedPathIsLogged}), where the level is kept. Only between hosts does it matter.
     *
     * @return the assumption line when {@code settings} was changed
     */
    private static Optional<String> gdrOffFromLog(Dataset d, ClusterGuess c, Map<String, String> settings) {
        NetworkLog.State gdr = d.log().net().gdr();
        if (!gdr.known() || c.topology().hostCount() < 2) {
            return Optional.empty();
        }
        if (gdr.on()) {
            if (settings.containsKey("NCCL_NET_GDR_LEVEL") && guessedPathIsLogged(d, c)) {
                return Optional.of("GPU Direct RDMA on as the NCCL INFO log says (line " + gdr.line() + "):"
                        + " NCCL_NET_GDR_LEVEL=" + settings.get("NCCL_NET_GDR_LEVEL") + " applied, the guessed"
                        + " GPU-NIC path being the distance the log prints");
            }
            String level = settings.remove("NCCL_NET_GDR_LEVEL");
            return level == null ? Optional.empty() : Optional.of("GPU Direct RDMA on as the NCCL INFO log says (line "
                    + gdr.line() + "): NCCL_NET_GDR_LEVEL=" + level + " not applied to the guessed GPU-NIC paths");
        }
        if (settings.containsKey("NCCL_NET_GDR_LEVEL")) {
            return Optional.empty();
        }
        settings.put("NCCL_NET_GDR_LEVEL", "LOC");
        return Optional.of("GPU Direct RDMA off as the NCCL INFO log says (line " + gdr.line()
                + "): modelled as NCCL_NET_GDR_LEVEL=LOC");
    }

    /**
     * @return true when the guessed cluster's first GPU reaches its host's first NIC at the path type the run's NCCL
     *         INFO log prints on its GPU Direct RDMA line ({@link ClusterGuesser#loggedGpuNicPath}): the run's own
     *         GDR level then means on the guessed path what it meant on the real one
     */
    private static boolean guessedPathIsLogged(Dataset d, ClusterGuess c) {
        Optional<PathType> logged = ClusterGuesser.loggedGpuNicPath(d);
        Topology t = c.topology();
        if (logged.isEmpty() || t.gpusOf(0).isEmpty() || t.nicsOf(0).isEmpty()) {
            return false;
        }
        return PathFinder.of(t).path(t.gpusOf(0).get(0), t.nicsOf(0).get(0)).type() == logged.get();
    }

    /**
     * A GPU Direct RDMA level the run sets (PIX, PXB, PHB, SYS or a number above 0) names a distance on the run's own
     * GPU-NIC paths; a guessed host's paths need not be those (a catalog DGX H100 standing in for another H100
     * server), so without the NCCL INFO log's word ({@link #gdrOffFromLog}) collsim does not judge the level on them
     * and keeps NCCL's default. LOC (never GDR, whatever the distance) is kept. Only between hosts does it matter.
     *
     * @return the assumption line when {@code settings} was changed
     */
    private static Optional<String> gdrLevelOnGuessedPaths(Dataset d, ClusterGuess c, Map<String, String> settings) {
        String level = settings.get("NCCL_NET_GDR_LEVEL");
        if (level == null || c.topology().hostCount() < 2 || d.log().net().gdr().known()
                || level.trim().equalsIgnoreCase("LOC") || level.trim().equals("0")) {
            return Optional.empty();
        }
        settings.remove("NCCL_NET_GDR_LEVEL");
        return Optional.of("NCCL_NET_GDR_LEVEL=" + level + " not applied: it names a distance on the run's own GPU-NIC"
                + " paths, which the guessed host's need not be, and no NCCL INFO log says whether GDR was on");
    }

    /**
     * A run that asks for CollNet (NCCL_COLLNET_ENABLE=1) but whose NCCL log says CollNet is off (the WARN
     * {@code Cannot initialize CollNet, using point-to-point network instead}, or an INFO {@code ... disabling CollNet})
     * ran without it: NCCL frees CollNet and sets {@code comm->collNetSupport = 0} (NCCL 2.23 {@code src/init.cc} after
     * {@code ncclTransportCollNetCheck}), so its Ring and Tree ran over the point-to-point network. Modelled as
     * NCCL_COLLNET_ENABLE=0.
     *
     * @return the assumption line when {@code settings} was changed
     */
    static Optional<String> collNetOffFromLog(Dataset d, Map<String, String> settings) {
        NetworkLog.State collNet = d.log().net().collNet();
        String asked = settings.get("NCCL_COLLNET_ENABLE");
        if (!collNet.known() || collNet.on() || asked == null || !"1".equals(asked.strip())) {
            return Optional.empty();
        }
        settings.put("NCCL_COLLNET_ENABLE", "0");
        return Optional.of("CollNet off as the NCCL log says (line " + collNet.line() + "): NCCL_COLLNET_ENABLE=1"
                + " modelled as 0 (NCCL went on without it)");
    }
}
