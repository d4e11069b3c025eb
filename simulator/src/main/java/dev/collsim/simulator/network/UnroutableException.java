package dev.collsim.simulator.network;

/**
 * No working route joins two ranks, or a GPU has no working NIC: what a what-if asked for (failed links or NICs, a
 * placement) leaves the fabric unable to carry a transfer. It is about the request, not a fault of the backend, so
 * the flow entry point reports it as a refused request; any other IllegalArgumentException from the network package
 * is a bug.
 */
public final class UnroutableException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    /** @param message which ranks, NICs or hosts could not be joined */
    public UnroutableException(String message) {
        super(message);
    }
}
