package dev.collsim.simulator.network;

import java.util.Objects;

/**
 * How the flow and analytical backends route transfers.
 *
 * @param multipath ECMP hash or ideal spraying between NICs (inside a host, NVLink traffic is always striped
 *                  over all equal-cost links, as NVLink stripes over its links)
 * @param pxn       PXN: when the receiver's NIC is on another rail than the sender's nearest NIC, first move the
 *                  data over NVLink to the GPU next to the NIC on the receiver's rail, then send it from there
 *                  (NCCL 2.12+, on by default, NCCL_PXN_DISABLE=0); false sends from the sender's own NIC
 *                  across rails
 * @param seed      seed of the ECMP hash
 */
public record RoutingOptions(Multipath multipath, boolean pxn, long seed) {

    /** NCCL-like defaults: ECMP, PXN on, seed 0. */
    public static final RoutingOptions DEFAULT = new RoutingOptions(Multipath.ECMP, true, 0);

    /** @throws NullPointerException when multipath is null */
    public RoutingOptions {
        Objects.requireNonNull(multipath, "multipath");
    }
}
