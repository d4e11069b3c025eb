package dev.collsim.topology;

import dev.collsim.units.Bandwidth;
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
 */
public record Nic(String id, int host, String name, Bandwidth speed, int port, boolean gdr, int rail, String busId)
        implements Device {

    /** @throws IllegalArgumentException when the speed is zero */
    public Nic {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(speed, "speed");
        name = name == null ? id : name;
        busId = busId == null ? "" : busId;
        if (speed.gbps() <= 0) {
            throw new IllegalArgumentException("NIC " + id + ": speed must be > 0");
        }
    }

    /**
     * @return NCCL's NET device index of this NIC (the {@code dev} of its {@code <net>} in NCCL's topology XML and
     *         of a {@code <net>} in NCCL's graph XML): the number its id ends with, as the readers name NICs (the
     *         NCCL topology XML reader {@code h<host>/nic<dev>}, catalog hosts {@code nic<k>} in NIC order) and as
     *         {@code topo export --format nccl-xml} writes it back; 0 when the id ends with no digit
     */
    public int ncclDev() {
        int i = id.length();
        while (i > 0 && Character.isDigit(id.charAt(i - 1))) {
            i--;
        }
        return i == id.length() ? 0 : Integer.parseInt(id.substring(i));
    }

    @Override
    public String ncclType() {
        return "NIC";
    }
}
