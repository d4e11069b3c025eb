/**
 * Real host types (servers and compute trays) as topology fragments, each citing its sources: DGX-1 V100, DGX A100,
 * DGX H100/H200, HGX B200, GB200 NVL72 compute trays, PCIe-only 8-GPU servers, and the cloud instance types and
 * vendor systems of the data file {@code systems.tsv} ({@code SystemHost}). Device ids follow
 * {@code h{host}/gpu{i}}, {@code h{host}/nvs{k}}, {@code h{host}/cpu{numa}}, {@code h{host}/pcisw{k}},
 * {@code h{host}/nic{k}}; a multi-host NVLink switch is {@code nvl{domain}/nvs{k}} with host -1.
 *
 * <p>This package depends on {@code dev.collsim.topology} and, for GPU figures, the GPU-model database
 * {@code dev.collsim.hardware}.
 */
package dev.collsim.topology.catalog;
