package io.quotaflow.architecture.cyclefixture.a;

import io.quotaflow.architecture.cyclefixture.b.Second;

/** A deliberate three-package cycle (a → b → c → a) that the cycle rule must reject. */
public final class First {

    public Second next() {
        return new Second();
    }
}
