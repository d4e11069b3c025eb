package dev.collsim.simulator.network;

/** The links backend times each transfer alone on its route: two flows on one 50 GB/s link take 20 us each. */
class LinksNetworkContractTest extends NetworkBackendContract {

    @Override
    NetworkBackend backend() {
        return new LinksNetwork();
    }

    @Override
    double sharedLinkTime() {
        return 1e6 / 50_000;
    }
}
