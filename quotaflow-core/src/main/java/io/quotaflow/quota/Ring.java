package io.quotaflow.quota;

import java.util.Arrays;

/**
 * An array deque with indexed access, so that a log kept in order can be binary searched: adding
 * at the end and removing at the front are O(1), inserting or removing inside shifts the elements
 * after it. Its capacity doubles as needed; the owner bounds how many it holds.
 *
 * @param <T> the element type
 */
final class Ring<T> {

    private static final int INITIAL_CAPACITY = 16;

    private Object[] items = new Object[INITIAL_CAPACITY];
    private int head;
    private int size;

    int size() {
        return size;
    }

    boolean isEmpty() {
        return size == 0;
    }

    @SuppressWarnings("unchecked")
    T get(int index) {
        if (index < 0 || index >= size) {
            throw new IndexOutOfBoundsException(index);
        }
        return (T) items[(head + index) & (items.length - 1)];
    }

    T first() {
        return get(0);
    }

    void addLast(T item) {
        grow();
        items[(head + size) & (items.length - 1)] = item;
        size++;
    }

    T removeFirst() {
        T first = get(0);
        items[head] = null;
        head = (head + 1) & (items.length - 1);
        size--;
        return first;
    }

    /** Inserts {@code item} at {@code index} (0 … size), shifting the later elements back. */
    void insert(int index, T item) {
        if (index < 0 || index > size) {
            throw new IndexOutOfBoundsException(index);
        }
        grow();
        int mask = items.length - 1;
        for (int i = size; i > index; i--) {
            items[(head + i) & mask] = items[(head + i - 1) & mask];
        }
        items[(head + index) & mask] = item;
        size++;
    }

    /** Removes the element at {@code index}, shifting the later ones forward. */
    T remove(int index) {
        T removed = get(index);
        int mask = items.length - 1;
        for (int i = index; i < size - 1; i++) {
            items[(head + i) & mask] = items[(head + i + 1) & mask];
        }
        items[(head + size - 1) & mask] = null;
        size--;
        return removed;
    }

    void clear() {
        Arrays.fill(items, null);
        head = 0;
        size = 0;
    }

    private void grow() {
        if (size < items.length) {
            return;
        }
        Object[] larger = new Object[items.length * 2];
        for (int i = 0; i < size; i++) {
            larger[i] = items[(head + i) & (items.length - 1)];
        }
        items = larger;
        head = 0;
    }
}
