package io.quotaflow.dispatch.ledger;

/** A delayed retry in the ledger's index: due at {@code notBefore} (epoch ms), ticket {@code id}. */
record DelayedRef(long notBefore, String id) {
}
