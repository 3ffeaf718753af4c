package io.quotaflow.architecture.layerfixture.planner;

import io.quotaflow.architecture.layerfixture.planner.ledger.Store;

import java.time.Duration;

/** A planner that reads the ledger and a time type itself: what {@code DispatchLayersTest.plannerDecidesFromValues} rejects. */
public final class DispatchPlanner {

    public long next(Store store, Duration linger) {
        return store.size() + linger.toMillis();
    }
}
