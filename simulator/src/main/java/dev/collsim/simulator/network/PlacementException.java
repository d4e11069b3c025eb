package dev.collsim.simulator.network;

/**
 * A rank placement that cannot be made: an unknown placement policy, or fewer free GPUs (in the pool or offered by a
 * hostfile) than ranks. It is about the request, so the flow entry point reports it as a refused request; any other
 * IllegalArgumentException from the placement code is a bug.
 */
public final class PlacementException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    /** @param message what was asked, what is available, and the allowed values where they apply */
    public PlacementException(String message) {
        super(message);
    }
}
