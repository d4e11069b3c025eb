package dev.collsim.simulator.network;

/**
 * The links backend times each transfer alone on its route, bounded by the busiest link of its job's step: two flows
 * of one job on one 50 GB/s link take 40 us, two flows of two jobs (jobs do not see each other) 20 us each.
 */
class LinksNetworkContractTest extends NetworkBackendContract {

    @Override
    NetworkBackend backend() {
        return new LinksNetwork();
    }

    @Override
    double sharedLinkTimeAcrossJobs() {
        return 1e6 / 50_000;
    }
}
