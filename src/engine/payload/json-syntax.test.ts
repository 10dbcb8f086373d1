import { describe, expect, it } from 'vitest';
import { findJsonSyntaxError } from './json-syntax.js';

describe('findJsonSyntaxError', () => {
  it('finds nothing in valid JSON, whatever JSON.parse accepts', () => {
    for (const ok of [
      '{}',
      '[]',
      ' 1 ',
      '"a\\u00e9\\n"',
      '{"a":[1,-2.5e3,true,false,null,{"b":""}]}',
      '\t[\n]\r\n',
    ]) {
      expect(() => JSON.parse(ok), ok).not.toThrow();
      expect(findJsonSyntaxError(ok), ok).toBeNull();
    }
  });

  it('reports the first error with line, column and position', () => {
    expect(findJsonSyntaxError('{"a":}')).toEqual({
      position: 5,
      line: 1,
      column: 6,
      message: 'unexpected "}", expected a value',
    });
    expect(findJsonSyntaxError('{\n  "a": 1,\n}')).toEqual({
      position: 12,
      line: 3,
      column: 1,
      message: 'unexpected "}", expected a property name in double quotes',
    });
    expect(findJsonSyntaxError('{"a" 1}')?.message).toBe('unexpected "1", expected ":"');
    expect(findJsonSyntaxError('[1 2]')?.message).toBe('unexpected "2", expected "," or "]"');
    expect(findJsonSyntaxError('{"a":1')?.message).toBe('unexpected end of input, expected "," or "}"');
    expect(findJsonSyntaxError('')?.message).toBe('unexpected end of input, expected a value');
    expect(findJsonSyntaxError('{} x')).toMatchObject({
      position: 3,
      message: 'unexpected "x" after the end of the JSON value',
    });
    expect(findJsonSyntaxError("{'a':1}")?.message).toBe(
      'unexpected "\'", expected a property name in double quotes',
    );
    expect(findJsonSyntaxError('"abc')?.message).toBe('unterminated string');
    expect(findJsonSyntaxError('"a\\x"')?.message).toBe('bad escape \\x');
    expect(findJsonSyntaxError('"\\u12G4"')?.message).toBe('bad \\u escape (four hex digits expected)');
    expect(findJsonSyntaxError('"a\tb"')?.message).toBe(
      'character U+0009 inside a string (escape it, e.g. \\n)',
    );
    expect(findJsonSyntaxError('[01]')?.message).toBe('unexpected "1", expected "," or "]"');
    expect(findJsonSyntaxError('[-]')?.message).toBe('bad number');
    expect(findJsonSyntaxError('[tru]')?.message).toBe('unexpected "t", expected a value');
  });

  it('survives deep nesting without recursion', () => {
    expect(findJsonSyntaxError('['.repeat(100000) + ']'.repeat(99999))?.message).toBe(
      'unexpected end of input, expected "," or "]"',
    );
  });
});
