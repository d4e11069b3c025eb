/**
 * NCCL environment variables as what-ifs: parsing and validation of {@code NCCL_ALGO}, {@code NCCL_PROTO}
 * (2.24+ syntax), channel, thread, buffer, NVLS, P2P, GDR, PXN, PAT and CollNet settings. Never reads the
 * process environment. Imports only the topology model.
 */
package dev.collsim.nccl.env;
