package dev.collsim.validation.compare;

import dev.collsim.hardware.GpuModel;
import dev.collsim.hardware.GpuModels;
import dev.collsim.topology.NetworkClass;
import dev.collsim.topology.catalog.Catalog;
import dev.collsim.topology.catalog.HostType;
import dev.collsim.topology.catalog.SystemEntry;
import dev.collsim.validation.ingest.Dataset;
import java.util.List;
import java.util.Optional;

/**
 * The catalog system a data file names: the header's hardware line, else the run's label
 * ({@link Catalog#recognise}: an instance type such as {@code AWS p5.48xlarge}, {@code GCP A3 Mega}, {@code Azure
 * ND96isr_H100_v5}, {@code OCI BM.GPU4.8}, or a DGX name), kept only when its GPU is the file's GPU model (a header may
 * name several machines). Stateless.
 */
final class HeaderSystem {

    /** Network classes of one cloud provider's systems only (the catalog's data file: systems.tsv). */
    private static final List<NetworkClass> PROVIDERS_OWN = List.of(NetworkClass.EFA, NetworkClass.TCPX,
            NetworkClass.TCPXO);

    private HeaderSystem() {
    }

    /**
     * @param d           the dataset
     * @param gpu         the file's GPU model, when recognised
     * @param assumptions where the choice is recorded
     * @return the named host type, empty when the file names none of the file's GPU
     */
    static Optional<HostType> of(Dataset d, Optional<GpuModel> gpu, List<String> assumptions) {
        for (String text : List.of(d.header().text("hardware"), d.label())) {
            Optional<HostType> t = Catalog.recognise(text).filter(h -> sameGpu(h, gpu));
            if (t.isPresent()) {
                assumptions.add("system " + t.get().name() + " named in the file: " + t.get().description());
                return t;
            }
        }
        return Optional.empty();
    }

    /**
     * The catalog system a file shows without naming it: a network class that only one provider's systems use (AWS
     * EFA; GCP's TCPX and TCPXO), read from the file ({@link HeaderNetworkClass}: the NCCL INFO log first), and the
     * file's GPU, when exactly one catalog system has both (EFA with H100 SXM: p5.48xlarge; TCPX with H100:
     * a3-highgpu-8g; EFA with H200 is p5e or p5en, so none is chosen). InfiniBand, RoCE and sockets are every vendor's, so they name no system.
     *
     * @param d           the dataset
     * @param gpu         the file's GPU model, when recognised
     * @param perHost     ranks per host the run used
     * @param assumptions where the choice is recorded
     * @return the one such system, empty otherwise
     */
    static Optional<HostType> byNetwork(Dataset d, Optional<GpuModel> gpu, int perHost, List<String> assumptions) {
        Optional<HeaderNetworkClass> net = HeaderNetworkClass.of(d);
        if (gpu.isEmpty() || net.isEmpty() || !PROVIDERS_OWN.contains(net.get().networkClass())) {
            return Optional.empty();
        }
        List<HostType> systems = Catalog.systems().stream().filter(s -> s.network() == net.get().networkClass())
                .map(SystemEntry::name).map(Catalog::hostType).flatMap(Optional::stream)
                .filter(h -> sameGpu(h, gpu) && h.gpusPerHost() >= perHost).toList();
        if (systems.size() != 1) {
            return Optional.empty();
        }
        HostType t = systems.get(0);
        assumptions.add("system " + t.name() + ", the one catalog system of the file's GPU (" + gpu.get().name()
                + ") over " + net.get().networkClass().label() + ", read from " + net.get().from() + ": "
                + t.description() + "; -c to name another");
        return Optional.of(t);
    }

    private static boolean sameGpu(HostType h, Optional<GpuModel> gpu) {
        if (gpu.isEmpty()) {
            return true;
        }
        String sku = Catalog.standalone(h, 1).gpus().get(0).model();
        return GpuModels.find(sku).map(m -> m.name().equals(gpu.get().name())).orElse(false);
    }
}
