package dev.collsim.validation.compare;

import dev.collsim.hardware.GpuModel;
import dev.collsim.hardware.GpuModels;
import dev.collsim.topology.catalog.Catalog;
import dev.collsim.topology.catalog.HostType;
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

    private static boolean sameGpu(HostType h, Optional<GpuModel> gpu) {
        if (gpu.isEmpty()) {
            return true;
        }
        String sku = Catalog.standalone(h, 1).gpus().get(0).model();
        return GpuModels.find(sku).map(m -> m.name().equals(gpu.get().name())).orElse(false);
    }
}
