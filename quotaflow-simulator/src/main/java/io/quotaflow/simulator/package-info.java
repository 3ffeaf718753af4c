/**
 * The OpenAI-compatible provider simulator (docs/simulator.md): limits, faults, outages, dialects
 * and batches, on the JDK's HTTP server. Depends on {@code wire} only (token counting); never on core.
 */
package io.quotaflow.simulator;
