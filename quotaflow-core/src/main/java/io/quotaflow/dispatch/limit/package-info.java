/**
 * What is known of the provider, read through the planner's {@code DispatchView.Limiter}: {@code ProviderModel}, the
 * limiter facade (buckets, calibration, context window, completion budget, in-flight limit) and the prompt and cost
 * of a batch; {@code BatchLimiter}, a batch route's limits; {@code EngineWatch}, a route found to be a self-hosted
 * engine. Above the planner and the calls, below the outcomes, the reports and the executor ({@code DispatchLayersTest}).
 */
package io.quotaflow.dispatch.limit;
