package dev.collsim.topology.io.export;

import dev.collsim.topology.io.AtomicFiles;
import dev.collsim.topology.io.Decimals;
import dev.collsim.topology.io.xml.NcclTopoXmlReader;
import dev.collsim.topology.io.xml.PciSpecs;

import dev.collsim.topology.Cpu;
import dev.collsim.topology.Device;
import dev.collsim.topology.Gpu;
import dev.collsim.topology.Link;
import dev.collsim.topology.LinkType;
import dev.collsim.topology.Nic;
import dev.collsim.topology.NvSwitch;
import dev.collsim.topology.PcieSwitch;
import dev.collsim.topology.Topology;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * Writes a {@link Topology} as NCCL topology XML ({@code NCCL_TOPO_FILE} format, NCCL 2.30 {@code src/graph/xml.cc}),
 * the inverse of {@link NcclTopoXmlReader}: reading the written text back gives the same devices and links (ids,
 * types, counts, bandwidths) for every topology the reader produces.
 *
 * <p>The PCIe tree is taken from the PCIe links, walked from each CPU; {@code pci} attributes come from the link's
 * {@code PCIe GenN xW} detail (or, when a link has none, the generation whose {@code PcieGen.physical} bandwidth is
 * nearest). NVLinks become {@code nvlink} elements (tclass 0x030200 to a GPU, 0x068000 to an NVSwitch, 0x068001 to
 * a CPU), C2C links {@code c2c} elements, LOC links between switches {@code pcilink}. A switch's
 * {@link PcieSwitch#hostBridge()} and a NIC's rail are kept in collsim's own {@code collsim_host_bridge} and
 * {@code collsim_rail} attributes, which NCCL ignores, so nvidia-smi's NODE and the compute/storage split of NICs
 * survive a round trip. A GPU that no PCIe link reaches (GB200: C2C only) is written below its
 * C2C CPU with NCCL's default PCIe attributes, as NCCL needs every GPU in a {@code pci}; such a NIC becomes a
 * {@code nic} under its CPU. An Intel CPU whose model text has no CPUID numbers gets family 6 and a representative
 * model id that makes NCCL pick the topology's NCCL SMP bandwidth.
 *
 * <p>What NCCL's format cannot express is not written: network switches and cables (NCCL's XML describes hosts, the
 * network is detected), physical SMP bandwidths (NCCL derives them from the CPU vendor and model), several NVSwitch
 * devices per host or one shared by several hosts (NCCL makes one NVS node per host), NVLink or C2C bandwidths
 * other than the per-sm rate, NIC latency, GPU memory and PCIe links outside the tree. Devices without a bus id get
 * a synthetic one ({@code e<host>:<bus>:<device>.0}, unique for 8192 devices per host). Multi-host topologies write one {@code cpu} group per host with
 * {@code host_hash} = host index. So catalog hosts come back as NCCL sees them (same GPUs, NICs, path types, NCCL
 * bandwidths and nvidia-smi labels; tested), and topologies read from NCCL XML come back identical. This class is
 * stateless and thread-safe.
 */
public final class NcclTopoXmlWriter {

    private static final String INVISIBLE = "fffffff:ff:ff.0";

    /**
     * Writes the XML to a file: to a temporary file in the same folder first, then moved into place atomically.
     *
     * @param topology the topology
     * @param file     target file
     * @throws IOException when the file cannot be written; the target is then untouched
     */
    public void write(Topology topology, Path file) throws IOException {
        AtomicFiles.write(file, write(topology));
    }

    /**
     * @param topology the topology
     * @return the NCCL topology XML text, {@code <system version="1">} root, two-space indent
     */
    public String write(Topology topology) {
        Objects.requireNonNull(topology, "topology");
        return new Run(topology).text();
    }

    /** One write: bus ids and ranks assigned once. */
    private static final class Run {
        private final Topology t;
        private final StringBuilder out = new StringBuilder();
        private final Map<Device, String> busIds = new HashMap<>();
        private final Map<Gpu, Integer> ranks = new HashMap<>();
        private final Map<Device, Device> parent = new HashMap<>();
        private int synthetic;

        Run(Topology t) {
            this.t = t;
            for (Gpu g : t.gpus()) {
                ranks.put(g, ranks.size());
            }
        }

        String text() {
            out.append("<system version=\"1\">\n");
            for (int host = 0; host < t.hostCount(); host++) {
                int h = host;
                List<Cpu> cpus = new ArrayList<>(t.devices(Cpu.class).stream().filter(c -> c.host() == h).toList());
                Map<Cpu, List<Device>> trees = new LinkedHashMap<>();
                for (Cpu c : cpus) {
                    trees.put(c, tree(c));
                }
                cpus.sort(Comparator.comparingInt((Cpu c) -> minSwitch(trees.get(c))).thenComparingInt(Cpu::numaId)
                        .thenComparing(Cpu::id));
                for (Cpu c : cpus) {
                    cpu(c, t.hostCount() > 1);
                }
            }
            return out.append("</system>\n").toString();
        }

        /** Breadth-first over PCIe links from a CPU; records each device's parent; returns the devices reached. */
        private List<Device> tree(Cpu cpu) {
            List<Device> reached = new ArrayList<>();
            List<Device> queue = new ArrayList<>(List.of(cpu));
            for (int i = 0; i < queue.size(); i++) {
                Device d = queue.get(i);
                for (Link l : t.outgoing(d)) {
                    Device n = t.target(l);
                    if (l.type() == LinkType.PCIE && !(n instanceof Cpu) && !parent.containsKey(n)) {
                        parent.put(n, d);
                        reached.add(n);
                        queue.add(n);
                    }
                }
            }
            return reached;
        }

        private List<Device> children(Device d) {
            List<Device> kids = new ArrayList<>();
            for (Link l : t.outgoing(d)) {
                Device n = t.target(l);
                if (l.type() == LinkType.PCIE && parent.get(n) == d && !kids.contains(n)) {
                    kids.add(n);
                }
            }
            kids.sort(Comparator.comparingInt(this::subtreeMinSwitch).thenComparing(Device::id));
            return kids;
        }

        private int minSwitch(List<Device> devices) {
            return devices.stream().filter(PcieSwitch.class::isInstance).mapToInt(d -> XmlText.trailingNumber(d.id()))
                    .min().orElse(Integer.MAX_VALUE);
        }

        private int subtreeMinSwitch(Device d) {
            int best = d instanceof PcieSwitch ? XmlText.trailingNumber(d.id()) : Integer.MAX_VALUE;
            for (Device k : children(d)) {
                best = Math.min(best, subtreeMinSwitch(k));
            }
            return best;
        }

        private void cpu(Cpu c, boolean multiHost) {
            out.append("  <cpu");
            if (multiHost) {
                attr("host_hash", "0x" + Integer.toHexString(c.host()));
            }
            attr("numaid", Integer.toString(c.numaId()));
            attr("arch", c.arch());
            if (!c.vendor().isEmpty()) {
                attr("vendor", c.vendor());
            }
            String[] fm = c.model().split(" ");
            if (fm.length == 4 && fm[0].equals("family") && fm[2].equals("model")) {
                attr("familyid", fm[1]);
                attr("modelid", fm[3]);
            } else if (c.vendor().equals("GenuineIntel")) {
                attr("familyid", "6");
                attr("modelid", Integer.toString(intelModelFor(c)));
            }
            out.append(">\n");
            List<Nic> virtualNics = new ArrayList<>();
            for (Device k : children(c)) {
                Link up = linkTo(k, c, LinkType.PCIE);
                if (k instanceof Nic n && up.detail().equals(NcclTopoXmlReader.VIRTUAL_NIC_LINK)) {
                    virtualNics.add(n);
                } else if (!(k instanceof Nic n) || isFirstPort(n)) {
                    pci(k, 2);
                }
            }
            for (Gpu g : orphanGpus(c)) {
                out.append("    <pci");
                attr("busid", busId(g));
                attr("class", PciSpecs.CLASS_GPU);
                attr("link_speed", "");
                attr("link_width", "0");
                out.append(">\n");
                gpu(g, 3);
                out.append("    </pci>\n");
            }
            virtualNics.addAll(orphanNics(c));
            if (!virtualNics.isEmpty()) {
                out.append("    <nic>\n");
                virtualNics.forEach(n -> net(n, 3));
                out.append("    </nic>\n");
            }
            out.append("  </cpu>\n");
        }

        /**
         * A representative Intel family-6 model id that makes NCCL choose the same SMP bandwidth as the topology's
         * SMP link from this CPU (NCCL 2.30 topo.cc: >= 0xCF 40, >= 0x8F 22, >= 0x55 10, else 6 GB/s): 0xCF Emerald
         * Rapids, 0x8F Sapphire Rapids, 0x55 Skylake-SP, 0x4F Broadwell-EP.
         */
        private int intelModelFor(Cpu c) {
            double nccl = t.outgoing(c).stream().filter(l -> l.type() == LinkType.SMP)
                    .mapToDouble(l -> l.ncclBandwidth().gbps()).max().orElse(10.0);
            return nccl >= 40 ? 0xCF : nccl >= 22 ? 0x8F : nccl >= 10 ? 0x55 : 0x4F;
        }

        private void pci(Device d, int depth) {
            String pad = "  ".repeat(depth);
            Link up = linkTo(d, parent.get(d), LinkType.PCIE);
            out.append(pad).append("<pci");
            attr("busid", busId(d));
            if (d instanceof PcieSwitch ps) {
                attr("class", PciSpecs.CLASS_BRIDGE);
                if (ps.hostBridge() >= 0) {
                    attr(PciSpecs.HOST_BRIDGE_ATTR, Integer.toString(ps.hostBridge()));
                }
            } else if (d instanceof Gpu g) {
                attr("class", PciSpecs.CLASS_GPU);
                int dev = PciSpecs.gpuDeviceId(g.model());
                if (dev >= 0) {
                    attr("vendor", "0x10de");
                    attr("device", String.format(Locale.ROOT, "0x%04x", dev));
                }
            } else {
                attr("class", PciSpecs.CLASS_NIC);
            }
            linkAttrs(up);
            out.append(">\n");
            if (d instanceof PcieSwitch) {
                for (Device k : children(d)) {
                    if (!(k instanceof Nic n) || isFirstPort(n)) {
                        pci(k, depth + 1);
                    }
                }
                for (Link l : t.outgoing(d)) {
                    if (l.type() == LinkType.LOC && t.target(l) instanceof PcieSwitch s) {
                        out.append(pad).append("  <pcilink");
                        attr("target", busId(s));
                        out.append("/>\n");
                    }
                }
            } else if (d instanceof Gpu g) {
                gpu(g, depth + 1);
            } else if (d instanceof Nic n) {
                out.append(pad).append("  <nic>\n");
                sameCard(n).forEach(p -> net(p, depth + 2));
                out.append(pad).append("  </nic>\n");
            }
            out.append(pad).append("</pci>\n");
        }

        /**
         * GPUs of the CPU's host that no PCIe link reaches are written below the CPU they have a C2C link to (else
         * the host's first CPU) with NCCL's default PCIe attributes (empty speed, width 0), since NCCL's format
         * needs every GPU in a {@code pci} element: NCCL too then sees a PCI link to the CPU next to the C2C link.
         */
        private List<Gpu> orphanGpus(Cpu c) {
            return t.gpusOf(c.host()).stream().filter(g -> !parent.containsKey(g) && home(g).equals(c)).toList();
        }

        /** NICs of the CPU's host that no PCIe link reaches: written as a {@code nic} directly under a CPU. */
        private List<Nic> orphanNics(Cpu c) {
            return t.devices(Nic.class).stream().filter(n -> n.host() == c.host() && !parent.containsKey(n)
                    && home(n).equals(c)).toList();
        }

        private Cpu home(Device d) {
            for (Link l : t.outgoing(d)) {
                if (t.target(l) instanceof Cpu cpu) {
                    return cpu;
                }
            }
            return t.devices(Cpu.class).stream().filter(x -> x.host() == d.host())
                    .min(Comparator.comparingInt(Cpu::numaId)).orElseThrow();
        }

        /** Ports of one card share a parent and a non-empty bus id; the card is written once, at its first port. */
        private List<Nic> sameCard(Nic n) {
            if (n.busId().isEmpty()) {
                return List.of(n);
            }
            return children(parent.get(n)).stream().filter(Nic.class::isInstance).map(Nic.class::cast)
                    .filter(o -> o.busId().equals(n.busId())).sorted(Comparator.comparing(Nic::id)).toList();
        }

        private boolean isFirstPort(Nic n) {
            return sameCard(n).get(0).equals(n);
        }

        private void gpu(Gpu g, int depth) {
            String pad = "  ".repeat(depth);
            out.append(pad).append("<gpu");
            attr("dev", Integer.toString(g.index()));
            attr("sm", Integer.toString(g.sm()));
            attr("rank", Integer.toString(ranks.get(g)));
            attr("gdr", "1");
            List<Link> nv = t.outgoing(g).stream().filter(l -> l.type() == LinkType.NVLINK || l.type() == LinkType.C2C)
                    .sorted(Comparator.comparing(Link::id)).toList();
            if (nv.isEmpty()) {
                out.append("/>\n");
                return;
            }
            out.append(">\n");
            for (Link l : nv) {
                Device r = t.target(l);
                if (l.type() == LinkType.C2C) {
                    out.append(pad).append("  <c2c");
                    attr("bw", Decimals.plain(Math.round(l.bandwidth().gbps() * 1000.0 / l.count() * 1e6) / 1e6));
                    attr("count", Integer.toString(l.count()));
                    out.append("/>\n");
                } else if (r instanceof NvSwitch && l.detail().contains("; switches ")) {
                    for (String chip : l.detail().substring(l.detail().indexOf("; switches ") + 11).split(",")) {
                        String[] kv = chip.split("=");
                        nvlink(pad, kv[0], kv[1], PciSpecs.CLASS_NVSWITCH);
                    }
                } else if (r instanceof NvSwitch) {
                    nvlink(pad, INVISIBLE, Integer.toString(l.count()), PciSpecs.CLASS_NVSWITCH);
                } else if (r instanceof Cpu) {
                    nvlink(pad, INVISIBLE, Integer.toString(l.count()), PciSpecs.CLASS_CPU);
                } else {
                    nvlink(pad, busId(r), Integer.toString(l.count()), PciSpecs.CLASS_GPU);
                }
            }
            out.append(pad).append("</gpu>\n");
        }

        private void nvlink(String pad, String target, String count, String tclass) {
            out.append(pad).append("  <nvlink");
            attr("target", target);
            attr("count", count);
            attr("tclass", tclass);
            out.append("/>\n");
        }

        private void net(Nic n, int depth) {
            out.append("  ".repeat(depth)).append("<net");
            attr("name", n.name());
            attr("dev", Integer.toString(n.ncclDev()));
            attr("speed", Decimals.plain(Math.round(n.speed().gbits() * 1000.0 * 1e6) / 1e6));
            attr("port", Integer.toString(n.port()));
            attr("latency", "0");
            attr("guid", "0x0");
            attr("maxconn", "65536");
            attr("gdr", n.gdr() ? "1" : "0");
            attr(PciSpecs.RAIL_ATTR, Integer.toString(n.rail()));
            out.append("/>\n");
        }

        private void linkAttrs(Link up) {
            String[] sw = PciSpecs.linkAttributes(up);
            attr("link_speed", sw[0]);
            attr("link_width", sw[1]);
        }

        private Link linkTo(Device from, Device to, LinkType type) {
            for (Link l : t.outgoing(from)) {
                if (l.type() == type && t.target(l).equals(to)) {
                    return l;
                }
            }
            throw new IllegalStateException("no " + type + " link " + from.id() + " -> " + to.id());
        }

        private String busId(Device d) {
            String known = d instanceof Gpu g ? g.busId() : d instanceof Nic n ? n.busId()
                    : d instanceof PcieSwitch s ? s.busId() : "";
            if (!known.isEmpty()) {
                return known;
            }
            return busIds.computeIfAbsent(d, k -> {
                int n = synthetic++;
                return String.format(Locale.ROOT, "e%03x:%02x:%02x.0", Math.max(0, k.host()) & 0xfff, (n >> 5) & 0xff,
                        n & 0x1f);
            });
        }

        private void attr(String key, String value) {
            out.append(' ').append(key).append("=\"").append(XmlText.escape(value)).append('"');
        }
    }
}
