import { parseTextArray, pgTextArray } from './text-array';

describe('parseTextArray', () => {
  // What PostgreSQL writes, and what it never writes but pg's parser reads.
  const values = [
    '{}',
    '{a}',
    '{a,b,c}',
    '{https://pictures.example/u1/s.jpg,https://pictures.example/u1/m.jpg}',
    '{NULL}',
    '{a,NULL,b}',
    '{"NULL"}',
    '{""}',
    '{"a b",c}',
    '{"a,b",c}',
    '{"a\\"b",c}',
    '{"a\\\\b"}',
    '{"{x}",y}',
    '{{a,b},{c,d}}',
    '[1:2]={a,b}',
    '{a,,b}',
    '{a,}',
    '{,}',
    '{ a , b }',
    '{é,日本}',
    '',
  ];

  it.each(values)('reads %j as pg does', (text) => {
    expect(parseTextArray(text)).toStrictEqual(pgTextArray(text));
  });
});
