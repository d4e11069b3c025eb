package dev.collsim.topology.io;

import dev.collsim.hardware.GpuModel;
import dev.collsim.hardware.GpuModels;
import dev.collsim.topology.Gpu;
import dev.collsim.topology.LinkType;
import dev.collsim.topology.Topology;
import java.util.List;
import java.util.Optional;

/**
 * Notices a machine file that leaves NVLinks out. NCCL finds a GPU's NVLinks at run time through NVML, so vendor
 * topology files given to it as NCCL_TOPO_FILE (Azure's ND A100 v4 / ND H100 v5 XML) and some dumps carry none; read
 * as they are, such a host is PCIe-only and every prediction on it is several times too slow. A warning is due when
 * a host has two or more GPUs and none of them has an NVLink, and the GPUs are of a model that has NVLink (the GPU
 * database, {@link GpuModel#nvlinks}) or of no known model. The fix it names is the NVLink hint of
 * {@link HardwareHints#nvswitchLinks()} ({@code --nvlink nvswitch}).
 */
public final class MissingNvlinks {

    private MissingNvlinks() {
    }

    /**
     * @param t a topology
     * @return one warning line (without a leading {@code #} or "warning:"), or empty when nothing is missing
     */
    public static Optional<String> warning(Topology t) {
        List<Gpu> gpus = t.gpus();
        // hosts described once: the template's GPUs have the links of every host's (its graph is small)
        Topology links = t.hostTemplate().orElse(t);
        if (gpus.isEmpty() || gpus.size() <= t.hostCount()
                || links.gpus().stream().anyMatch(g -> hasNvlink(links, g))) {
            return Optional.empty();
        }
        String modelName = gpus.get(0).model();
        Optional<GpuModel> model = GpuModels.find(modelName == null ? "" : modelName);
        if (model.isPresent() && model.get().nvlinks() == 0) {
            return Optional.empty();
        }
        if (model.isPresent()) {
            GpuModel m = model.get();
            return Optional.of("the cluster gives its " + gpus.size() + " " + m.name() + " GPUs no NVLink, but the "
                    + m.name() + " has " + m.nvlinks() + " " + m.nvlink().label() + " links (NCCL finds them at run"
                    + " time); this is a PCIe-only prediction. Declare them with --nvlink nvswitch"
                    + (m.nvSwitch() ? "" : " or --nvlink nvswitch:N"));
        }
        // a PCIe card (L40S, RTX) has no NVLink to declare: the GPU model still sets sm, memory and the class
        return Optional.of("the cluster names no GPU model and gives its GPUs no NVLink; this is a PCIe-only"
                + " prediction (GPUs taken as sm " + gpus.get(0).sm() + ", model unknown). Give the model with --gpu-model NAME"
                + " (e.g. L40S, A100-PCIE-80GB, H100-SXM5-80GB), and if the GPUs have NVLink, --nvlink nvswitch too");
    }

    private static boolean hasNvlink(Topology t, Gpu g) {
        return t.outgoing(g).stream().anyMatch(l -> l.type() == LinkType.NVLINK);
    }
}
