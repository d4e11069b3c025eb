/**
 * JMH benchmarks of the flow backend (issue 6): one ring AllReduce step pattern on 16,384 GPUs (2,048 DGX H100
 * hosts) on a rail-optimized fabric and on a 2:1 fat-tree, and a direct AllToAll on 2,048 GPUs. Target: under
 * 10 s each on a 2-core machine. Direct AllToAll on 16,384 GPUs with step sampling ({@code FlowAllToAll16kBenchmark},
 * both fabrics): target under 60 s.
 */
package dev.collsim.benchmarks.flow;
