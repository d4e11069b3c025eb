package dev.collsim.topology;

/**
 * The PCI vendor of a host's network interfaces, as far as NCCL's socket transport reads it: NCCL 2.30.7
 * {@code src/transport/net_socket.cc} ({@code ncclNetSocketGetNsockNthread}) reads
 * {@code /sys/class/net/IFNAME/device/vendor} and picks its default helper threads and sockets per connection by it
 * (the defaults themselves live with the socket model, {@code simulator.perf.SocketStreams}). A cloud host type of the
 * catalog has its provider's vendor; every other host {@link #OTHER}. Spelled as the vendor file spells it
 * ({@link #pciId()}).
 */
public enum NicVendor {
    /** Amazon (ENA and EFA adapters), PCI vendor 0x1d0f. */
    AWS("0x1d0f"),
    /** Google (gVNIC), PCI vendor 0x1ae0. */
    GCP("0x1ae0"),
    /** Any other vendor, or none readable (a VM's virtio device, a bonded interface). */
    OTHER("");

    private final String pciId;

    NicVendor(String pciId) {
        this.pciId = pciId;
    }

    /** @return the PCI vendor id as {@code /sys/class/net/IFNAME/device/vendor} holds it, e.g. {@code 0x1d0f}; "" for OTHER */
    public String pciId() {
        return pciId;
    }

    /**
     * @param provider a catalog system's provider ({@code AWS}, {@code GCP}, {@code Azure}, ...), case-insensitive
     * @return the vendor of that provider's NICs; {@link #OTHER} for any other provider or null
     */
    public static NicVendor ofProvider(String provider) {
        if ("AWS".equalsIgnoreCase(provider)) {
            return AWS;
        }
        return "GCP".equalsIgnoreCase(provider) ? GCP : OTHER;
    }
}
