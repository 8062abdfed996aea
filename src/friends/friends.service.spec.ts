import { friendKey, toFriendResponse } from './friends.service';

describe('toFriendResponse', () => {
  it('leaves out an absent name and empty picture lists', () => {
    expect(
      toFriendResponse({
        identityId: 'f',
        displayName: null,
        smallPictures: [],
        mediumPictures: [],
        largePictures: [],
      }),
    ).toStrictEqual({ identityId: 'f' });
  });

  it('maps every field', () => {
    expect(
      toFriendResponse({
        identityId: 'f',
        displayName: 'F',
        smallPictures: ['https://p.example/s'],
        mediumPictures: ['https://p.example/m'],
        largePictures: ['https://p.example/l'],
      }),
    ).toStrictEqual({
      identityId: 'f',
      displayName: 'F',
      smallPictures: ['https://p.example/s'],
      mediumPictures: ['https://p.example/m'],
      largePictures: ['https://p.example/l'],
    });
  });

  it('keys a friend without a name as the empty name, as the database orders it', () => {
    expect(friendKey({ identityId: 'f' })).toStrictEqual(['', 'f']);
  });
});
