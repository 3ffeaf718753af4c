package io.quotaflow.architecture.layerfixture.planner.ledger;

/** A live store the fixture's planner reads. */
public final class Store {

    public int size() {
        return 0;
    }
}
