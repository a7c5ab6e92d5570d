// @vitest-environment happy-dom
import '@testing-library/jest-dom/vitest';
import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { TruncatedText } from './truncated-text.tsx';

/** happy-dom lays nothing out: a box 100 px wide, and text 8 px a character. */
function layOut() {
  vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockReturnValue(100);
  vi.spyOn(HTMLElement.prototype, 'scrollWidth', 'get').mockImplementation(function (this: HTMLElement) {
    return (this.textContent ?? '').length * 8;
  });
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('TruncatedText', () => {
  it('gives a cut value its full text as a title and a Tab stop; a value that fits gets neither', () => {
    layOut();
    render(
      <>
        <TruncatedText text="dana.longname.worthington@an-extremely-long-domain.example" />
        <TruncatedText text="ada@x.io" />
      </>,
    );
    const long = screen.getByText('dana.longname.worthington@an-extremely-long-domain.example');
    expect(long).toHaveAttribute('title', 'dana.longname.worthington@an-extremely-long-domain.example');
    expect(long).toHaveAttribute('tabindex', '0');
    expect(long).toHaveClass('truncate', 'focus-visible:whitespace-normal');
    const short = screen.getByText('ada@x.io');
    expect(short).not.toHaveAttribute('title');
    expect(short).not.toHaveAttribute('tabindex');
  });

  it('measures again when its box resizes, but not while focused (shown whole, it fits, and must keep its Tab stop)', () => {
    layOut();
    const resized: (() => void)[] = [];
    vi.stubGlobal(
      'ResizeObserver',
      class {
        constructor(callback: () => void) {
          resized.push(callback);
        }
        observe() {}
        disconnect() {}
      },
    );
    render(<TruncatedText text="a value far too long for its narrow column" />);
    const value = screen.getByText('a value far too long for its narrow column');
    expect(value).toHaveAttribute('tabindex', '0');

    act(() => value.focus());
    vi.spyOn(HTMLElement.prototype, 'scrollWidth', 'get').mockReturnValue(100);
    act(() => resized.forEach((callback) => callback()));
    expect(value).toHaveAttribute('tabindex', '0');
    expect(value).toHaveFocus();

    // Once the focus leaves, a wider box that fits it takes the title and the Tab stop away.
    act(() => value.blur());
    act(() => resized.forEach((callback) => callback()));
    expect(value).not.toHaveAttribute('tabindex');
    expect(value).not.toHaveAttribute('title');
  });
});
