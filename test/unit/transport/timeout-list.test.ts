import { TimeoutList, TimeoutLists } from '../../../src/transport/timeout-list';

describe('TimeoutList', () => {
  afterEach(() => jest.useRealTimers());

  it('times entries out in order, at their deadline, with one timer', () => {
    jest.useFakeTimers();
    const expired: string[] = [];
    const list = new TimeoutList<string>(100, (item) => expired.push(item));
    list.add('a');
    jest.advanceTimersByTime(40);
    list.add('b');
    const c = list.add('c');
    expect(jest.getTimerCount()).toBe(1);
    jest.advanceTimersByTime(59);
    expect(expired).toEqual([]);
    jest.advanceTimersByTime(1);
    expect(expired).toEqual(['a']);
    list.remove(c);
    jest.advanceTimersByTime(40);
    expect(expired).toEqual(['a', 'b']);
    expect(list.size).toBe(0);
    expect(jest.getTimerCount()).toBe(0);
  });

  it('drops its timer once empty, and removing twice or after expiry is harmless', () => {
    jest.useFakeTimers();
    const expired: number[] = [];
    const list = new TimeoutList<number>(50, (item) => expired.push(item));
    const one = list.add(1);
    const two = list.add(2);
    list.remove(one);
    list.remove(one);
    list.remove(two);
    expect(jest.getTimerCount()).toBe(0);
    const three = list.add(3);
    jest.advanceTimersByTime(50);
    list.remove(three);
    expect(expired).toEqual([3]);
  });

  it('lets a timeout callback remove or add entries', () => {
    jest.useFakeTimers();
    const expired: string[] = [];
    const lists = new TimeoutLists<string>((item) => {
      expired.push(item);
      if (item === 'a') lists.remove(handles.b);
      if (item === 'c') lists.add('d', 10);
    });
    const handles = { a: lists.add('a', 10), b: lists.add('b', 10), c: lists.add('c', 10) };
    jest.advanceTimersByTime(10);
    expect(expired).toEqual(['a', 'c']);
    jest.advanceTimersByTime(10);
    expect(expired).toEqual(['a', 'c', 'd']);
    expect(jest.getTimerCount()).toBe(0);
  });

  it('keeps one list per duration and clears them all', () => {
    jest.useFakeTimers();
    const expired: string[] = [];
    const lists = new TimeoutLists<string>((item) => expired.push(item));
    lists.add('slow', 1000);
    lists.add('fast', 10);
    jest.advanceTimersByTime(10);
    expect(expired).toEqual(['fast']);
    lists.clear();
    jest.advanceTimersByTime(1000);
    expect(expired).toEqual(['fast']);
    expect(jest.getTimerCount()).toBe(0);
  });
});
