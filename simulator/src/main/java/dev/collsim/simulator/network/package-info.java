/**
 * Network backends (style.md 2.5, stage 3): time a {@code dev.collsim.simulator.schedule.Schedule} on the
 * physical {@code Topology} graph. {@link dev.collsim.simulator.network.LinksNetwork} charges each transfer
 * its route's latency plus bytes over the route's bottleneck bandwidth (congestion-unaware);
 * {@link dev.collsim.simulator.network.FlowNetwork} routes every transfer, shares each link max-min fairly among
 * the flows crossing it and advances from event to event as flows finish (congestion-aware). Both use the same
 * {@link dev.collsim.simulator.network.Router}, so they agree exactly where no link is shared. Also here: rank
 * placement, concurrent jobs and fabric failures. Backends do not know which collective they carry; this
 * package must not import {@code dev.collsim.simulator.schedule}'s algorithms, only its data records.
 */
package dev.collsim.simulator.network;
