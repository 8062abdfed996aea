/** A friend as the API returns it. */
export interface FriendResponse {
  identityId: string;
  displayName?: string;
  smallPictures?: string[];
  mediumPictures?: string[];
  largePictures?: string[];
}
