/**
 * The developer distribution's entry point ({@code QuotaflowDevCommand}) and its own commands:
 * {@code demo}, {@code bench}, {@code broker} and {@code sim}, registered with the production command
 * line together with the variables they read. Nothing outside the developer distribution depends on it.
 */
package io.quotaflow.dev;
