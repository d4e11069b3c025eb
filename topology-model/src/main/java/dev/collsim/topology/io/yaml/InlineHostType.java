package dev.collsim.topology.io.yaml;

import dev.collsim.topology.Cpu;
import dev.collsim.topology.Device;
import dev.collsim.topology.Gpu;
import dev.collsim.topology.Nic;
import dev.collsim.topology.NvSwitch;
import dev.collsim.hardware.PcieGen;
import dev.collsim.topology.PcieSwitch;
import dev.collsim.topology.catalog.HostContext;
import dev.collsim.topology.catalog.HostType;
import dev.collsim.units.Bandwidth;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A host type described inline in a YAML cluster spec (see {@link InlineHostParser} for the schema). Immutable; the
 * parser has validated every cross-reference before building one.
 *
 * @param name        host type name
 * @param description one line
 * @param gpus        GPU count and kind
 * @param cpus        CPU (NUMA node) count and kind
 * @param nvlink      NVLink layout, or null for none
 * @param pcie        PCIe tree
 * @param nics        NICs in index order
 */
record InlineHostType(String name, String description, GpuSpec gpus, CpuSpec cpus, NvlinkSpec nvlink,
        PcieSpec pcie, List<NicSpec> nics) implements HostType {

    /** GPUs: count, model, sm, memory bytes. */
    record GpuSpec(int count, String model, int sm, long memory) {
    }

    /** CPUs: count, arch, vendor, model, physical SMP bandwidth between each pair. */
    record CpuSpec(int count, String arch, String vendor, String model, Bandwidth interconnect) {
    }

    /** NVLink: switched (switches > 0, linksPerGpu) or direct pairs {a, b, links}; per-link bandwidth. */
    record NvlinkSpec(int switches, int linksPerGpu, Bandwidth perLink, String generation, List<int[]> pairs) {
    }

    /** One PCIe switch: name, parent switch name or CPU index, host bridge, attached GPUs and NICs. */
    record SwitchSpec(String name, String parent, Integer cpu, int hostBridge, List<Integer> gpus,
            List<Integer> nics) {
    }

    /** Devices on a CPU's root ports. */
    record RootPortSpec(int cpu, List<Integer> gpus, List<Integer> nics) {
    }

    /**
     * PCIe: generation, width, switches, root ports; {@code speedUnset}: NCCL reads every link's speed as unset and
     * takes its 8 GT/s fallback ({@link HostContext#pcieSpeedUnset}).
     */
    record PcieSpec(PcieGen gen, int width, List<SwitchSpec> switches, List<RootPortSpec> rootPorts,
            boolean speedUnset) {
    }

    /** One NIC: name, speed, rail (-1 = not on the compute fabric), GDR. */
    record NicSpec(String name, Bandwidth speed, int rail, boolean gdr) {
    }

    InlineHostType {
        nics = List.copyOf(nics);
    }

    @Override
    public int gpusPerHost() {
        return gpus.count();
    }

    @Override
    public void addHost(HostContext ctx) {
        Cpu[] cpuNodes = new Cpu[cpus.count()];
        for (int i = 0; i < cpus.count(); i++) {
            cpuNodes[i] = ctx.cpu(i, cpus.arch(), cpus.vendor(), cpus.model());
        }
        for (int a = 0; a < cpuNodes.length; a++) {
            for (int b = a + 1; b < cpuNodes.length; b++) {
                ctx.smp(cpuNodes[a], cpuNodes[b], cpus.interconnect(), "SMP");
            }
        }
        Gpu[] gpuNodes = new Gpu[gpus.count()];
        for (int i = 0; i < gpus.count(); i++) {
            gpuNodes[i] = ctx.gpu(i, gpus.model(), gpus.sm(), gpus.memory());
        }
        Nic[] nicNodes = new Nic[nics.size()];
        for (int i = 0; i < nics.size(); i++) {
            NicSpec n = nics.get(i);
            nicNodes[i] = ctx.nic(i, n.name(), n.speed(), n.gdr(), n.rail());
        }
        if (nvlink != null) {
            String gen = nvlink.generation();
            double per = nvlink.perLink().gbps();
            if (nvlink.switches() > 0) {
                NvSwitch nvs = ctx.nvSwitch(0, nvlink.switches());
                for (Gpu g : gpuNodes) {
                    ctx.nvlink(g, nvs, nvlink.linksPerGpu(), per, gen);
                }
            }
            for (int[] p : nvlink.pairs()) {
                ctx.nvlink(gpuNodes[p[0]], gpuNodes[p[1]], p[2], per, gen);
            }
        }
        Map<String, PcieSwitch> byName = new HashMap<>();
        for (int k = 0; k < pcie.switches().size(); k++) {
            SwitchSpec s = pcie.switches().get(k);
            byName.put(s.name(), ctx.pcieSwitch(k, s.hostBridge()));
        }
        for (SwitchSpec s : pcie.switches()) {
            PcieSwitch me = byName.get(s.name());
            Device up = s.parent() != null ? byName.get(s.parent()) : cpuNodes[s.cpu()];
            link(ctx, up, me);
            attach(ctx, me, s.gpus(), s.nics(), gpuNodes, nicNodes);
        }
        for (RootPortSpec r : pcie.rootPorts()) {
            attach(ctx, cpuNodes[r.cpu()], r.gpus(), r.nics(), gpuNodes, nicNodes);
        }
    }

    private void attach(HostContext ctx, Device up, List<Integer> g, List<Integer> n, Gpu[] gpuNodes,
            Nic[] nicNodes) {
        for (int i : g) {
            link(ctx, up, gpuNodes[i]);
        }
        for (int i : n) {
            link(ctx, up, nicNodes[i]);
        }
    }

    private void link(HostContext ctx, Device up, Device down) {
        if (pcie.speedUnset()) {
            ctx.pcieSpeedUnset(up, down, pcie.gen(), pcie.width());
        } else {
            ctx.pcie(up, down, pcie.gen(), pcie.width());
        }
    }
}
