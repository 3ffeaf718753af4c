/**
 * Where a ticket goes (docs/design.md, "Routes"): the route its rules name or the one it already
 * travels on ({@link io.quotaflow.routing.RouteChooser}), along the context-fallback chain when it
 * does not fit, and when a waiting ticket leaves its route for a fallback
 * ({@link io.quotaflow.routing.FallbackPolicy}). Plain classes over the configuration: the topology
 * applies their decisions.
 */
package io.quotaflow.routing;
