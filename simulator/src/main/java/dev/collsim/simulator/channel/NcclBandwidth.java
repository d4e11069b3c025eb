package dev.collsim.simulator.channel;

import dev.collsim.topology.Device;
import dev.collsim.topology.Gpu;
import dev.collsim.topology.Link;
import dev.collsim.topology.LinkType;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The bandwidth NCCL's search charges on a link (its "NCCL view", NCCL 2.30.7 {@code src/graph/topo.h},
 * {@code topo.cc}; fact sheet §5.2), which differs from the physical bandwidth. When the topology states it
 * ({@link Link#ncclBandwidth()} differs from the physical bandwidth) that value is used; otherwise:
 * <ul>
 *   <li>NVLink: count x per-link bandwidth by generation of the GPU end: 18.0 (sm60), 20.0 (sm70, sm80), 12.0
 *       (sm86-89), 20.6 (sm90), 40.1 (sm100+) GB/s.</li>
 *   <li>PCIe: width x per-lane code / 80 with codes 15, 30, 60, 120, 240, 480 for Gen1..Gen6, read from the
 *       link detail ("Gen5") and its lane count: Gen4 x16 = 24, Gen5 x16 = 48 GB/s. Without a generation the
 *       physical bandwidth is used.</li>
 *   <li>Everything else (NIC cables: speed / 8; SMP; C2C): the link's own bandwidth.</li>
 * </ul>
 */
public final class NcclBandwidth {

    private static final Pattern GEN = Pattern.compile("gen\\s*([1-6])");
    private static final int[] PCI_CODE = {0, 15, 30, 60, 120, 240, 480};

    private NcclBandwidth() {
    }

    /**
     * @param sm compute capability x 10
     * @return NCCL's per-NVLink bandwidth for that generation, GB/s
     */
    public static double nvlinkPerLink(int sm) {
        if (sm >= 100) {
            return 40.1;
        }
        if (sm >= 90) {
            return 20.6;
        }
        if (sm >= 86) {
            return 12.0;
        }
        if (sm >= 70) {
            return 20.0;
        }
        return 18.0;
    }

    /**
     * @param link the directed link
     * @param from its source device
     * @param to   its target device
     * @return the bandwidth NCCL's search charges, GB/s
     */
    public static double of(Link link, Device from, Device to) {
        if (link.ncclBandwidth().gbps() != link.bandwidth().gbps()) {
            return link.ncclBandwidth().gbps(); // the topology states NCCL's view explicitly
        }
        if (link.type() == LinkType.NVLINK) {
            int sm = from instanceof Gpu g ? g.sm() : to instanceof Gpu g2 ? g2.sm() : 0;
            if (sm > 0) {
                return link.count() * nvlinkPerLink(sm);
            }
            return link.bandwidth().gbps();
        }
        if (link.type() == LinkType.PCIE) {
            Matcher m = GEN.matcher(link.detail().toLowerCase(Locale.ROOT));
            if (m.find()) {
                int width = link.count() > 1 ? link.count() : 16;
                return width * PCI_CODE[Integer.parseInt(m.group(1))] / 80.0;
            }
        }
        return link.bandwidth().gbps();
    }
}
