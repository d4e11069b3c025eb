package dev.collsim.topology;

import dev.collsim.units.Bandwidth;
import java.util.Comparator;
import java.util.Objects;

/**
 * A network interface (one port as NCCL sees it: one NET device).
 *
 * @param id     unique id
 * @param host   host index
 * @param name   device name, e.g. {@code mlx5_0}
 * @param speed  port speed (bandwidth per direction)
 * @param port   port number (1-based, as NCCL's {@code port})
 * @param gdr    GPUDirect RDMA capable
 * @param rail   rail index (NIC i of every host is on rail i); -1 if none
 * @param busId  PCI bus id (empty if unknown)
 * @param ncclDev NCCL's NET device index of this NIC on its host (the {@code dev} of its {@code <net>} in NCCL's
 *               topology XML and of a {@code <net>} in NCCL's graph XML; NCCL 2.28.9 {@code src/graph/topo.cc
 *               ncclTopoPopulateNics}: plugin device n gets {@code dev} n, one numbering per host). Readers whose
 *               NICs carry no number of their own (an InfraGraph host of several NIC components) pass it; the
 *               other constructor takes the number the id ends with ({@link #devOfId})
 */
public record Nic(String id, int host, String name, Bandwidth speed, int port, boolean gdr, int rail, String busId,
        int ncclDev) implements Device {

    /**
     * NCCL's numbering of a host's NICs, the one order collsim numbers them in (the search's NICs, a ring channel's
     * entry and exit NIC positions, the flow router's NIC at a position, a host's paths): by host, then NET device
     * index ({@link #ncclDev}), then id with digit runs compared as numbers ({@code nic9} before {@code nic10}) for
     * NICs whose ids carry the same index. NCCL numbers NET devices in the order the net plugin reports them (2.28.9
     * {@code src/graph/topo.cc} {@code ncclTopoPopulateNics}: {@code xmlSetAttrInt(netNode, "dev", n)} for plugin
     * device n) and a graph names a NIC by that number ({@code ncclTopoGetNetDev}, {@code inter[]}); comparing ids
     * as text would put {@code nic10} before {@code nic2} on a host of more than 10 NICs.
     */
    public static final Comparator<Nic> NET_DEV_ORDER = Comparator.comparingInt(Nic::host)
            .thenComparingInt(Nic::ncclDev).thenComparing(Nic::id, Nic::naturalCompare);

    /** @throws IllegalArgumentException when the speed is zero */
    public Nic {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(speed, "speed");
        name = name == null ? id : name;
        busId = busId == null ? "" : busId;
        if (speed.gbps() <= 0) {
            throw new IllegalArgumentException("NIC " + id + ": speed must be > 0");
        }
        if (ncclDev < 0) {
            throw new IllegalArgumentException("NIC " + id + ": NET device index must be >= 0");
        }
    }

    /**
     * A NIC numbered by its id ({@link #devOfId}), as the NCCL topology XML reader ({@code h<host>/nic<dev>}) and the
     * catalog hosts ({@code nic<k>} in NIC order) name NICs.
     */
    public Nic(String id, int host, String name, Bandwidth speed, int port, boolean gdr, int rail, String busId) {
        this(id, host, name, speed, port, gdr, rail, busId, devOfId(Objects.requireNonNull(id, "id")));
    }

    /**
     * @param id a NIC id
     * @return the number the id ends with; 0 when it ends with no digit
     */
    public static int devOfId(String id) {
        int i = id.length();
        while (i > 0 && Character.isDigit(id.charAt(i - 1))) {
            i--;
        }
        return i == id.length() ? 0 : Integer.parseInt(id.substring(i));
    }

    /** Compares ids so that {@code nic10} sorts after {@code nic9}: digit runs as numbers, the rest as text. */
    static int naturalCompare(String a, String b) {
        String da = a.replaceAll("\\D+", " ").trim();
        String db = b.replaceAll("\\D+", " ").trim();
        String pa = a.replaceAll("\\d+", "#");
        String pb = b.replaceAll("\\d+", "#");
        int c = pa.compareTo(pb);
        if (c != 0 || da.isEmpty() || db.isEmpty()) {
            return c != 0 ? c : a.compareTo(b);
        }
        String[] xa = da.split(" ");
        String[] xb = db.split(" ");
        for (int i = 0; i < Math.min(xa.length, xb.length); i++) {
            int k = Long.compare(Long.parseLong(xa[i]), Long.parseLong(xb[i]));
            if (k != 0) {
                return k;
            }
        }
        return Integer.compare(xa.length, xb.length);
    }

    @Override
    public String ncclType() {
        return "NIC";
    }
}
