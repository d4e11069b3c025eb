package dev.collsim.simulator.network;

/** The flow backend shares links max-min fairly: two equal flows on one 50 GB/s link get 25 GB/s each, 40 us. */
class FlowNetworkContractTest extends NetworkBackendContract {

    @Override
    NetworkBackend backend() {
        return new FlowNetwork();
    }

    @Override
    double sharedLinkTimeAcrossJobs() {
        return 1e6 / 25_000;
    }
}
