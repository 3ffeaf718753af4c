/**
 * Go-style durations ({@code GoDuration}: {@code 1m30s}, {@code 6ms}), the form of the providers' rate-limit reset
 * headers; read by core's header parser and written by the simulator. No dependencies.
 */
package io.quotaflow.duration;
